//! The connection loop: accepts TCP connections and serves HTTP/1.1 (with
//! WebSocket upgrades) on each, so that no connection can hold the server
//! for long without doing its part.
//!
//! - A client has [`Limits::header_read`] to send a whole request head, from
//!   the moment it connects and again after each answer on a kept-alive
//!   connection (hyper's header-read timeout, which is also the idle
//!   timeout between requests); then the same again for the request body.
//! - A client that reads nothing of what it is sent for
//!   [`Limits::socket_idle`] is disconnected (the write stalls that long).
//! - One address holds at most [`Limits::connections_per_address`] open
//!   connections, WebSockets included (IPv6: one `/64` counts as one
//!   address); the next one is answered `429` and closed.
//! - Each request carries the client's [`ClientAddr`]: behind a proxy that
//!   speaks the PROXY protocol (`proxy_protocol`), the address its header
//!   names ([`crate::proxy_protocol`]), read within
//!   [`Limits::header_read`] before anything else; a connection without
//!   one is closed.
//! - On stop, no new connection is taken and the open ones are asked to
//!   finish; the loop waits for them at most [`DRAIN`].

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv6Addr};
use std::pin::{Pin, pin};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::Request;
use axum::response::{IntoResponse, Response};
use hyper::body::{Frame, Incoming, SizeHint};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

use crate::error::{ActionError, ErrorCode};
use crate::limits::{ClientAddr, Limits};

/// How long a stopping server waits for open connections to finish.
pub const DRAIN: Duration = Duration::from_secs(5);

/// How long the loop rests after the listener fails for want of resources
/// (too many open files), so that it does not spin.
const ACCEPT_PAUSE: Duration = Duration::from_secs(1);

/// Serves `app` on `listener` until `stop` completes, within `limits`
/// (see the module docs), each connection opening with a PROXY protocol
/// header when `proxy_protocol`; then drains the open connections (at
/// most [`DRAIN`]). Upgraded WebSockets are not waited for: their rooms
/// close them on the server's own shutdown signal.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Arc<Limits>,
    proxy_protocol: bool,
    stop: impl Future<Output = ()>,
) {
    let connections = Connections::new(limits.connections_per_address);
    // Every connection task holds a receiver; `closed()` is when all are gone.
    let (stopping, _) = watch::channel(false);
    let mut stop = pin!(stop);
    loop {
        let (tcp, peer) = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) if per_connection(&e) => continue,
                Err(e) => {
                    tracing::warn!(error = %e, "accepting connections");
                    tokio::time::sleep(ACCEPT_PAUSE).await;
                    continue;
                }
            },
        };
        // Moves are small and urgent: no Nagle delay.
        let _ = tcp.set_nodelay(true);
        let (connections, app, limits) = (connections.clone(), app.clone(), limits.clone());
        let stopping = stopping.subscribe();
        tokio::spawn(async move {
            let mut tcp = tcp;
            let mut ip = peer.ip().to_canonical();
            if proxy_protocol {
                let header = tokio::time::timeout(
                    limits.header_read,
                    crate::proxy_protocol::read_header(&mut tcp),
                );
                match header.await {
                    Ok(Ok(client)) => ip = client.unwrap_or(ip),
                    Ok(Err(e)) => {
                        tracing::debug!(peer = %peer, error = %e, "connection refused");
                        return;
                    }
                    Err(_) => {
                        tracing::debug!(peer = %peer, "no PROXY protocol header in time");
                        return;
                    }
                }
            }
            let slot = connections.open(ip);
            connection(tcp, ip, slot, app, limits, stopping).await;
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    let _ = tokio::time::timeout(DRAIN, stopping.closed()).await;
}

/// Whether an accept error concerns only the one connection (the loop
/// goes straight on) rather than the listener (the loop pauses).
fn per_connection(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// Serves one connection: the app if it has a `slot`, otherwise one `429`
/// and the end.
async fn connection(
    tcp: TcpStream,
    ip: IpAddr,
    slot: Option<Slot>,
    app: Router,
    limits: Arc<Limits>,
    stopping: watch::Receiver<bool>,
) {
    let admitted = slot.is_some();
    let io = TokioIo::new(Stream::new(tcp, slot, limits.socket_idle));
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read)
        .keep_alive(admitted);
    // Errors here are the client's (timeouts, resets, bad requests) and
    // end only this connection; hyper has answered what can be answered.
    if admitted {
        let body_read = limits.header_read;
        let service = TowerToHyperService::new(
            app.map_request(move |request| prepare(request, ip, body_read)),
        );
        let conn = http.serve_connection(io, service).with_upgrades();
        let _ = until_stopped(conn, stopping, |conn| conn.graceful_shutdown()).await;
    } else {
        let cap = limits.connections_per_address;
        let service = hyper::service::service_fn(move |_: Request<Incoming>| async move {
            Ok::<_, Infallible>(too_many_connections(cap))
        });
        let conn = http.serve_connection(io, service);
        let _ = until_stopped(conn, stopping, |conn| conn.graceful_shutdown()).await;
    }
}

/// Drives `conn` to its end; when the server stops first, asks it to
/// finish (`shutdown`: hyper's graceful shutdown) and drives it on.
async fn until_stopped<C: Future>(
    conn: C,
    mut stopping: watch::Receiver<bool>,
    shutdown: impl FnOnce(Pin<&mut C>),
) -> C::Output {
    let mut conn = pin!(conn);
    tokio::select! {
        output = conn.as_mut() => return output,
        // A closed channel also means stop.
        _ = stopping.wait_for(|stop| *stop) => shutdown(conn.as_mut()),
    }
    conn.await
}

/// A request as the app sees it: the client's address in its extensions,
/// its body (if it has one) due within `body_read`.
fn prepare(mut request: Request<Incoming>, ip: IpAddr, body_read: Duration) -> Request<Body> {
    request.extensions_mut().insert(ClientAddr(address_key(ip)));
    request.map(|body| {
        if hyper::body::Body::is_end_stream(&body) {
            Body::new(body)
        } else {
            Body::new(Deadline::new(body, body_read))
        }
    })
}

/// The answer to a connection over the cap: `429` in the server's error
/// shape, with the security headers.
fn too_many_connections(cap: usize) -> Response {
    let mut response = ActionError::new(
        ErrorCode::TooManyRequests,
        format!("this address has {cap} connections open already; close one and try again"),
    )
    .into_response();
    crate::defences::secure(response.headers_mut());
    response
}

/// The key an address is counted under: IPv4 addresses (also when mapped
/// into IPv6) as they are, IPv6 addresses by their `/64` network, which
/// one client typically holds whole.
///
/// # Examples
///
/// ```
/// use std::net::IpAddr;
/// use rochade_server::net::address_key;
/// let a: IpAddr = "2001:db8:1:2:aaaa::1".parse()?;
/// let b: IpAddr = "2001:db8:1:2:bbbb::2".parse()?;
/// assert_eq!(address_key(a), address_key(b));
/// let v4: IpAddr = "::ffff:192.0.2.7".parse()?;
/// assert_eq!(address_key(v4), "192.0.2.7".parse::<IpAddr>()?);
/// # Ok::<(), std::net::AddrParseError>(())
/// ```
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => {
            let network = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(Ipv6Addr::from(network))
        }
    }
}

/// Open connections by address, each at most `cap`.
///
/// # Examples
///
/// ```
/// use rochade_server::net::Connections;
/// let connections = Connections::new(2);
/// let ip = "192.0.2.7".parse()?;
/// let first = connections.open(ip).expect("room for one");
/// let second = connections.open(ip).expect("room for two");
/// assert!(connections.open(ip).is_none());
/// drop(first);
/// assert_eq!(connections.count(ip), 1);
/// assert!(connections.open(ip).is_some());
/// # drop(second);
/// # Ok::<(), std::net::AddrParseError>(())
/// ```
#[derive(Debug)]
pub struct Connections {
    /// The most one address may hold.
    cap: usize,
    /// Open connections by [`address_key`]; addresses with none are removed.
    open: Mutex<HashMap<IpAddr, usize>>,
}

impl Connections {
    /// A count allowing `cap` connections per address.
    pub fn new(cap: usize) -> Arc<Connections> {
        Arc::new(Connections {
            cap,
            open: Mutex::new(HashMap::new()),
        })
    }

    /// A place for one more connection from `ip`, held until the [`Slot`]
    /// is dropped; `None` when the address has `cap` open already.
    pub fn open(self: &Arc<Self>, ip: IpAddr) -> Option<Slot> {
        let key = address_key(ip);
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.entry(key).or_insert(0);
        if *count >= self.cap {
            if *count == 0 {
                open.remove(&key);
            }
            return None;
        }
        *count += 1;
        Some(Slot {
            connections: self.clone(),
            key,
        })
    }

    /// How many connections `ip`'s address holds now.
    pub fn count(&self, ip: IpAddr) -> usize {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.get(&address_key(ip)).copied().unwrap_or(0)
    }
}

/// One connection's place in [`Connections`]; dropping it frees the place.
#[derive(Debug)]
pub struct Slot {
    /// The count it belongs to.
    connections: Arc<Connections>,
    /// Its address key.
    key: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self
            .connections
            .open
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(count) = open.get_mut(&self.key) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&self.key);
            }
        }
    }
}

/// A client's TCP stream, holding its [`Slot`] for as long as the stream
/// lives: through hyper and on inside an upgraded WebSocket, which owns
/// the stream after hyper hands it over. A write that makes no progress
/// for `stall` fails with [`io::ErrorKind::TimedOut`].
#[derive(Debug)]
struct Stream {
    /// The connection.
    tcp: TcpStream,
    /// Its place in the count (`None`: over the cap, answered `429`).
    _slot: Option<Slot>,
    /// How long a write may wait for the client to read.
    stall: Duration,
    /// The deadline of the write now waiting, if one is.
    deadline: Option<Pin<Box<Sleep>>>,
    /// Whether `deadline` is set for the write now waiting.
    waiting: bool,
}

impl Stream {
    /// Wraps `tcp`.
    fn new(tcp: TcpStream, slot: Option<Slot>, stall: Duration) -> Stream {
        Stream {
            tcp,
            _slot: slot,
            stall,
            deadline: None,
            waiting: false,
        }
    }

    /// Passes on the outcome of a write; a write still waiting after
    /// `stall` becomes an error.
    fn watch<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            self.waiting = false;
            return polled;
        }
        let stall = self.stall;
        let deadline = self
            .deadline
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(stall)));
        if !self.waiting {
            deadline.as_mut().reset(Instant::now() + stall);
            self.waiting = true;
        }
        match deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client read nothing for too long",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for Stream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for Stream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.tcp).poll_write(cx, buf);
        this.watch(cx, polled)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.tcp).poll_write_vectored(cx, bufs);
        this.watch(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.tcp).poll_flush(cx);
        this.watch(cx, polled)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.tcp).poll_shutdown(cx);
        this.watch(cx, polled)
    }
}

/// Why a request body could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    /// The connection failed.
    #[error("reading the body: {0}")]
    Http(#[from] hyper::Error),
    /// The body did not arrive in time.
    #[error("the body did not arrive within {0:?}")]
    TimedOut(Duration),
}

/// A request body that must arrive whole within a time.
#[derive(Debug)]
struct Deadline {
    /// The body.
    body: Incoming,
    /// When it is due.
    due: Pin<Box<Sleep>>,
    /// The time it was given.
    within: Duration,
}

impl Deadline {
    /// `body`, due within `within` from now.
    fn new(body: Incoming, within: Duration) -> Deadline {
        Deadline {
            body,
            due: Box::pin(tokio::time::sleep(within)),
            within,
        }
    }
}

impl hyper::body::Body for Deadline {
    type Data = Bytes;
    type Error = BodyError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BodyError>>> {
        let this = self.get_mut();
        match Pin::new(&mut this.body).poll_frame(cx) {
            Poll::Ready(frame) => Poll::Ready(frame.map(|f| f.map_err(BodyError::Http))),
            Poll::Pending => match this.due.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Some(Err(BodyError::TimedOut(this.within)))),
                Poll::Pending => Poll::Pending,
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_addresses_count_by_their_64() {
        let ip = |s: &str| s.parse::<IpAddr>().expect("address");
        assert_eq!(address_key(ip("2001:db8::1")), ip("2001:db8::"));
        assert_ne!(
            address_key(ip("2001:db8:0:1::1")),
            address_key(ip("2001:db8:0:2::1"))
        );
        assert_eq!(address_key(ip("::ffff:10.0.0.1")), ip("10.0.0.1"));
        assert_eq!(address_key(ip("10.0.0.1")), ip("10.0.0.1"));
    }

    #[test]
    fn slots_are_freed_and_forgotten() {
        let connections = Connections::new(1);
        let ip: IpAddr = "192.0.2.1".parse().expect("address");
        let other: IpAddr = "192.0.2.2".parse().expect("address");
        let slot = connections.open(ip);
        assert!(slot.is_some());
        assert!(connections.open(ip).is_none());
        assert!(
            connections.open(other).is_some(),
            "another address has its own count"
        );
        drop(slot);
        assert_eq!(connections.count(ip), 0);
        let open = connections.open.lock().expect("lock");
        assert!(open.is_empty(), "addresses with nothing open are removed");
    }
}
