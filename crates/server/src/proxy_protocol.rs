//! The PROXY protocol (HAProxy's, versions 1 and 2; nginx's `proxy_protocol`
//! speaks it too): a proxy in front of the server opens each connection with
//! a header naming the client's address, so that per-address limits count
//! clients rather than the proxy. A server started with `--proxy-protocol`
//! reads the header before anything else and refuses a connection without
//! one: only the proxy may connect to it (docs/deploy.md).
//!
//! Specification: <https://www.haproxy.org/download/2.8/doc/proxy-protocol.txt>.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use tokio::io::{AsyncRead, AsyncReadExt};

/// The first twelve bytes of a version 2 header.
const SIGNATURE: [u8; 12] = *b"\r\n\r\n\0\r\nQUIT\n";

/// The longest version 1 header, `\r\n` included.
const V1_MAX: usize = 107;

/// The longest version 2 address block read (TLVs past the addresses are
/// read and skipped); a longer one is refused.
const V2_MAX: usize = 1024;

/// Why a connection's PROXY header was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProxyError {
    /// The connection did not begin with a PROXY header.
    #[error("no PROXY protocol header: the connection did not come through the proxy")]
    Missing,
    /// The header is not as the protocol says; what was wrong.
    #[error("a malformed PROXY protocol header: {0}")]
    Malformed(&'static str),
    /// The connection ended (or failed) inside the header.
    #[error("the connection ended inside its PROXY protocol header")]
    Truncated,
}

/// Reads a PROXY header (version 1 or 2) from the start of `stream`, and
/// nothing past it; the client's address it names, or `None` when the
/// proxy speaks for itself (version 2's `LOCAL`, as in its health checks,
/// or version 1's `UNKNOWN`): then the connection's own address counts.
///
/// # Errors
///
/// [`ProxyError`]: no header, a malformed one, or the stream ended in it.
///
/// # Examples
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use rochade_server::proxy_protocol::read_header;
/// let mut stream: &[u8] = b"PROXY TCP4 192.0.2.7 198.51.100.1 51234 443\r\nGET / HTTP/1.1\r\n";
/// let client = read_header(&mut stream).await.unwrap();
/// assert_eq!(client, Some("192.0.2.7".parse().unwrap()));
/// assert!(stream.starts_with(b"GET /"));
/// # });
/// ```
pub async fn read_header<R: AsyncRead + Unpin>(
    stream: &mut R,
) -> Result<Option<IpAddr>, ProxyError> {
    // Eight bytes tell the versions apart; the shortest version 1 line
    // (`PROXY UNKNOWN\r\n`) is 15 bytes, so no more is read yet.
    let mut start = [0u8; 16];
    read_exact(stream, &mut start[..8]).await?;
    if start[..8] == SIGNATURE[..8] {
        read_exact(stream, &mut start[8..]).await?;
        if start[..12] != SIGNATURE {
            return Err(ProxyError::Malformed("a version 2 signature cut short"));
        }
        return read_v2(stream, &start).await;
    }
    if start.starts_with(b"PROXY ") {
        return read_v1(stream, &start[..8]).await;
    }
    Err(ProxyError::Missing)
}

/// Fills `buf`, or says the stream ended.
async fn read_exact<R: AsyncRead + Unpin>(
    stream: &mut R,
    buf: &mut [u8],
) -> Result<(), ProxyError> {
    stream
        .read_exact(buf)
        .await
        .map(|_| ())
        .map_err(|_| ProxyError::Truncated)
}

/// The rest of a version 2 header whose first 16 bytes are `start`.
async fn read_v2<R: AsyncRead + Unpin>(
    stream: &mut R,
    start: &[u8; 16],
) -> Result<Option<IpAddr>, ProxyError> {
    let (version, command) = (start[12] >> 4, start[12] & 0x0f);
    if version != 2 {
        return Err(ProxyError::Malformed(
            "version 2 signature with another version",
        ));
    }
    let family = start[13] >> 4;
    let length = usize::from(u16::from_be_bytes([start[14], start[15]]));
    if length > V2_MAX {
        return Err(ProxyError::Malformed("an address block over 1 KiB"));
    }
    let mut block = vec![0u8; length];
    read_exact(stream, &mut block).await?;
    match command {
        // LOCAL: the proxy's own connection (a health check).
        0x0 => return Ok(None),
        0x1 => {}
        _ => return Err(ProxyError::Malformed("a command other than LOCAL or PROXY")),
    }
    match family {
        // AF_UNSPEC: the proxy does not know the client.
        0x0 => Ok(None),
        // AF_INET: source, destination, source port, destination port.
        0x1 => {
            let b = block
                .get(..12)
                .ok_or(ProxyError::Malformed("an IPv4 block shorter than 12 bytes"))?;
            Ok(Some(IpAddr::V4(Ipv4Addr::new(b[0], b[1], b[2], b[3]))))
        }
        // AF_INET6: likewise with 16-byte addresses.
        0x2 => {
            let b = block
                .get(..36)
                .ok_or(ProxyError::Malformed("an IPv6 block shorter than 36 bytes"))?;
            let mut octets = [0u8; 16];
            octets.copy_from_slice(&b[..16]);
            Ok(Some(IpAddr::V6(Ipv6Addr::from(octets)).to_canonical()))
        }
        // AF_UNIX and anything else names no network client.
        _ => Err(ProxyError::Malformed(
            "an address family other than IPv4 or IPv6",
        )),
    }
}

/// The rest of a version 1 header (one line of text) that begins with
/// `start`.
async fn read_v1<R: AsyncRead + Unpin>(
    stream: &mut R,
    start: &[u8],
) -> Result<Option<IpAddr>, ProxyError> {
    let mut line = start.to_vec();
    // One byte at a time: nothing past the line may be taken from the stream.
    while !line.ends_with(b"\r\n") {
        if line.len() >= V1_MAX {
            return Err(ProxyError::Malformed("a version 1 line over 107 bytes"));
        }
        let mut byte = [0u8; 1];
        read_exact(stream, &mut byte).await?;
        line.push(byte[0]);
    }
    let text = std::str::from_utf8(&line[..line.len() - 2])
        .map_err(|_| ProxyError::Malformed("a version 1 line that is not ASCII"))?;
    let fields: Vec<&str> = text.split(' ').collect();
    match fields.as_slice() {
        ["PROXY", "UNKNOWN", ..] => Ok(None),
        ["PROXY", family @ ("TCP4" | "TCP6"), source, _, _, _] => {
            let ip: IpAddr = source
                .parse()
                .map_err(|_| ProxyError::Malformed("a version 1 source that is no address"))?;
            match (*family, ip) {
                ("TCP4", IpAddr::V4(_)) | ("TCP6", IpAddr::V6(_)) => Ok(Some(ip.to_canonical())),
                _ => Err(ProxyError::Malformed(
                    "a version 1 source of the other family",
                )),
            }
        }
        _ => Err(ProxyError::Malformed(
            "a version 1 line other than PROXY TCP4|TCP6 source destination ports",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A version 2 header: `command`, `family` byte, address block.
    fn v2(command: u8, family: u8, block: &[u8]) -> Vec<u8> {
        let mut header = SIGNATURE.to_vec();
        header.push(0x20 | command);
        header.push(family);
        header.extend_from_slice(&(block.len() as u16).to_be_bytes());
        header.extend_from_slice(block);
        header
    }

    async fn read(bytes: &[u8]) -> (Result<Option<IpAddr>, ProxyError>, Vec<u8>) {
        let mut stream = bytes;
        let result = read_header(&mut stream).await;
        (result, stream.to_vec())
    }

    fn ip(text: &str) -> Option<IpAddr> {
        Some(text.parse().expect("address"))
    }

    #[tokio::test]
    async fn version_2_names_the_client_and_leaves_the_request() {
        let mut block = vec![192, 0, 2, 7, 10, 0, 0, 1];
        block.extend_from_slice(&51234u16.to_be_bytes());
        block.extend_from_slice(&443u16.to_be_bytes());
        // A TLV after the addresses (HAProxy's unique id) is skipped.
        block.extend_from_slice(&[0x05, 0x00, 0x02, b'i', b'd']);
        let mut bytes = v2(1, 0x11, &block);
        bytes.extend_from_slice(b"GET / HTTP/1.1\r\n");
        let (client, rest) = read(&bytes).await;
        assert_eq!(client, Ok(ip("192.0.2.7")));
        assert_eq!(rest, b"GET / HTTP/1.1\r\n");

        let mut block = "2001:db8::1"
            .parse::<Ipv6Addr>()
            .expect("v6")
            .octets()
            .to_vec();
        block.extend_from_slice(&Ipv6Addr::LOCALHOST.octets());
        block.extend_from_slice(&[0, 80, 1, 187]);
        assert_eq!(read(&v2(1, 0x21, &block)).await.0, Ok(ip("2001:db8::1")));
    }

    #[tokio::test]
    async fn the_proxys_own_checks_name_nobody() {
        assert_eq!(read(&v2(0, 0x00, &[])).await.0, Ok(None));
        // LOCAL with addresses: still the proxy's own connection.
        assert_eq!(read(&v2(0, 0x11, &[0; 12])).await.0, Ok(None));
        let (client, rest) = read(b"PROXY UNKNOWN\r\nGET /healthz").await;
        assert_eq!(client, Ok(None));
        assert_eq!(rest, b"GET /healthz");
    }

    #[tokio::test]
    async fn version_1_names_the_client() {
        let line = b"PROXY TCP6 2001:db8::7 2001:db8::1 51234 443\r\n";
        assert_eq!(read(line).await.0, Ok(ip("2001:db8::7")));
        let mapped = b"PROXY TCP6 ::ffff:192.0.2.7 ::1 51234 443\r\n";
        assert_eq!(read(mapped).await.0, Ok(ip("192.0.2.7")));
    }

    #[tokio::test]
    async fn anything_else_is_refused_saying_what() {
        let cases: [(&[u8], ProxyError); 8] = [
            (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", ProxyError::Missing),
            (b"PROXY TC", ProxyError::Truncated),
            (
                b"PROXY TCP4 192.0.2.7 10.0.0.1 1 2 extra\r\n",
                ProxyError::Malformed(
                    "a version 1 line other than PROXY TCP4|TCP6 source destination ports",
                ),
            ),
            (
                b"PROXY TCP4 2001:db8::7 10.0.0.1 1 2\r\n",
                ProxyError::Malformed("a version 1 source of the other family"),
            ),
            (
                b"PROXY TCP4 nobody 10.0.0.1 1 2\r\n",
                ProxyError::Malformed("a version 1 source that is no address"),
            ),
            (
                &[b"PROXY TCP4 ".as_slice(), &[b'1'; 120]].concat(),
                ProxyError::Malformed("a version 1 line over 107 bytes"),
            ),
            (
                &v2(1, 0x11, &[192, 0, 2]),
                ProxyError::Malformed("an IPv4 block shorter than 12 bytes"),
            ),
            (
                &v2(1, 0x31, &[0; 216]),
                ProxyError::Malformed("an address family other than IPv4 or IPv6"),
            ),
        ];
        for (bytes, error) in cases {
            assert_eq!(
                read(bytes).await.0,
                Err(error),
                "{:?}",
                String::from_utf8_lossy(bytes)
            );
        }
        // Version 3, a command 2, an address block longer than 1 KiB, and
        // a block cut short.
        let mut bad_version = v2(1, 0x11, &[0; 12]);
        bad_version[12] = 0x31;
        assert!(matches!(
            read(&bad_version).await.0,
            Err(ProxyError::Malformed(_))
        ));
        assert!(matches!(
            read(&v2(2, 0x11, &[0; 12])).await.0,
            Err(ProxyError::Malformed(_))
        ));
        let mut long = v2(1, 0x11, &[0; 12]);
        long[14..16].copy_from_slice(&2000u16.to_be_bytes());
        assert!(matches!(read(&long).await.0, Err(ProxyError::Malformed(_))));
        let mut short = v2(1, 0x11, &[0; 12]);
        short.truncate(20);
        assert_eq!(read(&short).await.0, Err(ProxyError::Truncated));
    }
}
