//! A blocking client that drives an external UCI engine process.
//!
//! [`UciClient::spawn`] starts the program, reads its `id` and `option`
//! lines up to `uciok`, and from then on sends [`GuiCommand`]s and waits for
//! the [`EngineMessage`]s that answer them. Every wait has a time-out; a
//! line that is not UCI is set aside as a [`GarbageLine`] instead of failing;
//! the process is killed when the client is dropped.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;

use crate::{
    ClientError, EngineMessage, GarbageLine, GoParams, GuiCommand, Id, Info, OptionDecl,
    PositionSpec, UciParseError,
};

/// At most this many garbage lines are kept between two
/// [`take_garbage`](UciClient::take_garbage) calls; later ones are counted.
const GARBAGE_KEPT: usize = 1000;

/// What the engine answered to `go`: its move and what it last said about it.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_uci::SearchResult;
///
/// let result = SearchResult {
///     best: "e2e4".parse().unwrap(),
///     ponder: None,
///     info: None,
///     elapsed: Duration::from_millis(120),
/// };
/// assert_eq!(result.best.to_string(), "e2e4");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// The move of `bestmove` (`0000` when the engine had none).
    pub best: UciMove,
    /// The `ponder` move, if any.
    pub ponder: Option<UciMove>,
    /// The last `info` line of the main line (no `multipv` above 1) that
    /// carried a score or a principal variation.
    pub info: Option<Info>,
    /// Time from sending `go` to reading `bestmove`, as the client measured it.
    pub elapsed: Duration,
}

/// One event of the thread that reads the engine's stdout.
enum ReaderEvent {
    /// A line without its line break.
    Line(String),
    /// Reading failed; the thread ends.
    Failed(std::io::Error),
}

/// A running external engine spoken to over UCI.
///
/// # Examples
///
/// ```no_run
/// use std::time::Duration;
/// use rochade_uci::{GoParams, PositionBase, PositionSpec, UciClient};
///
/// let wait = Duration::from_secs(5);
/// let mut sf = UciClient::spawn("/usr/games/stockfish", &[] as &[&str], wait)?;
/// sf.set_option("UCI_LimitStrength", Some("true"))?;
/// sf.set_option("UCI_Elo", Some("1500"))?;
/// sf.new_game()?;
/// sf.is_ready(wait)?;
/// sf.position(&PositionSpec { base: PositionBase::StartPos, moves: vec![] })?;
/// let result = sf.go(&GoParams { depth: Some(8), ..GoParams::default() }, wait)?;
/// println!("{} plays {}", sf.name().unwrap_or("?"), result.best);
/// sf.quit(wait);
/// # Ok::<(), rochade_uci::ClientError>(())
/// ```
#[derive(Debug)]
pub struct UciClient {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<ReaderEventBox>,
    name: Option<String>,
    author: Option<String>,
    options: Vec<OptionDecl>,
    garbage: Vec<GarbageLine>,
    garbage_dropped: usize,
    search_started: Option<Instant>,
}

/// The channel's item: [`ReaderEvent`] wrapped so that `UciClient` can
/// derive `Debug`.
struct ReaderEventBox(ReaderEvent);

impl std::fmt::Debug for ReaderEventBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            ReaderEvent::Line(line) => write!(f, "Line({line:?})"),
            ReaderEvent::Failed(e) => write!(f, "Failed({e})"),
        }
    }
}

impl UciClient {
    /// Starts `path` with `args` and performs the handshake: `uci`, then the
    /// engine's `id` and `option` lines up to `uciok`, within `timeout`.
    ///
    /// The engine's stderr is discarded.
    ///
    /// # Errors
    ///
    /// [`ClientError::Spawn`] if the program cannot be started,
    /// [`ClientError::Timeout`] or [`ClientError::Exited`] if no `uciok`
    /// comes (the process is killed then).
    pub fn spawn<S: AsRef<OsStr>>(
        path: impl AsRef<Path>,
        args: &[S],
        timeout: Duration,
    ) -> Result<Self, ClientError> {
        let path = path.as_ref();
        let spawn_error = |source| ClientError::Spawn {
            path: path.to_owned(),
            source,
        };
        let mut child = Command::new(path)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(spawn_error)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(spawn_error(std::io::Error::other("no stdin/stdout pipe")));
        };
        let (sender, lines) = mpsc::channel();
        let reader = thread::Builder::new()
            .name("uci-client-reader".into())
            .spawn(move || read_lines(BufReader::new(stdout), &sender));
        if let Err(e) = reader {
            let _ = child.kill();
            let _ = child.wait();
            return Err(spawn_error(e));
        }
        let mut client = Self {
            child,
            stdin,
            lines,
            name: None,
            author: None,
            options: Vec::new(),
            garbage: Vec::new(),
            garbage_dropped: 0,
            search_started: None,
        };
        client.handshake(timeout)?;
        Ok(client)
    }

    /// Sends `uci` and reads `id` and `option` lines until `uciok`.
    fn handshake(&mut self, timeout: Duration) -> Result<(), ClientError> {
        self.send(&GuiCommand::Uci)?;
        let deadline = Instant::now() + timeout;
        loop {
            match self.next_message("uciok", deadline, timeout)? {
                EngineMessage::Id(Id::Name(name)) => self.name = Some(name),
                EngineMessage::Id(Id::Author(author)) => self.author = Some(author),
                EngineMessage::Option(decl) => self.options.push(decl),
                EngineMessage::UciOk => return Ok(()),
                _ => {}
            }
        }
    }

    /// The engine's `id name`, if it sent one.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The engine's `id author`, if it sent one.
    pub fn author(&self) -> Option<&str> {
        self.author.as_deref()
    }

    /// The options the engine declared during the handshake, in order.
    pub fn options(&self) -> &[OptionDecl] {
        &self.options
    }

    /// The declared option called `name`, compared without regard to ASCII
    /// case as the UCI spec asks.
    pub fn option(&self, name: &str) -> Option<&OptionDecl> {
        self.options
            .iter()
            .find(|decl| decl.name.eq_ignore_ascii_case(name))
    }

    /// The lines that were not UCI messages since the last call, oldest
    /// first, and how many more were dropped because too many piled up.
    pub fn take_garbage(&mut self) -> (Vec<GarbageLine>, usize) {
        let dropped = std::mem::take(&mut self.garbage_dropped);
        (std::mem::take(&mut self.garbage), dropped)
    }

    /// Sends one command line as is.
    ///
    /// # Errors
    ///
    /// [`ClientError::MultiLine`] if the line would contain a line break,
    /// [`ClientError::Write`] if the engine's stdin is closed.
    pub fn send(&mut self, command: &GuiCommand) -> Result<(), ClientError> {
        let text = command.to_string();
        if text.contains(['\n', '\r']) {
            return Err(ClientError::MultiLine(text));
        }
        let line = format!("{text}\n");
        self.stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.flush())
            .map_err(|source| ClientError::Write {
                command: text,
                source,
            })
    }

    /// Sends `setoption` for a declared option, spelled as the engine
    /// declared it; `value` is `None` for buttons.
    ///
    /// # Errors
    ///
    /// [`ClientError::UnknownOption`] if the engine declared no such option,
    /// else as [`send`](Self::send).
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), ClientError> {
        let declared = self
            .option(name)
            .ok_or_else(|| ClientError::UnknownOption {
                name: name.to_owned(),
            })?
            .name
            .clone();
        self.send(&GuiCommand::SetOption {
            name: declared,
            value: value.map(str::to_owned),
        })
    }

    /// Sends `isready` and waits for `readyok`.
    ///
    /// # Errors
    ///
    /// [`ClientError::Timeout`] or [`ClientError::Exited`] if no `readyok`
    /// comes, else as [`send`](Self::send).
    pub fn is_ready(&mut self, timeout: Duration) -> Result<(), ClientError> {
        self.send(&GuiCommand::IsReady)?;
        let deadline = Instant::now() + timeout;
        while self.next_message("readyok", deadline, timeout)? != EngineMessage::ReadyOk {}
        Ok(())
    }

    /// Sends `ucinewgame`.
    ///
    /// # Errors
    ///
    /// As [`send`](Self::send).
    pub fn new_game(&mut self) -> Result<(), ClientError> {
        self.send(&GuiCommand::UciNewGame)
    }

    /// Sends `position startpos|fen … [moves …]`.
    ///
    /// # Errors
    ///
    /// As [`send`](Self::send).
    pub fn position(&mut self, spec: &PositionSpec) -> Result<(), ClientError> {
        self.send(&GuiCommand::Position(spec.clone()))
    }

    /// Sends `go` and waits up to `timeout` for `bestmove`.
    ///
    /// On a time-out the engine is still searching: call
    /// [`stop`](Self::stop) to get its move, or drop the client.
    ///
    /// # Errors
    ///
    /// [`ClientError::Timeout`] or [`ClientError::Exited`] if no `bestmove`
    /// comes, else as [`send`](Self::send).
    pub fn go(
        &mut self,
        params: &GoParams,
        timeout: Duration,
    ) -> Result<SearchResult, ClientError> {
        self.start_search(params)?;
        self.wait_bestmove(timeout)
    }

    /// Sends `go` and returns at once; [`wait_bestmove`](Self::wait_bestmove)
    /// or [`stop`](Self::stop) collect the answer.
    ///
    /// # Errors
    ///
    /// As [`send`](Self::send).
    pub fn start_search(&mut self, params: &GoParams) -> Result<(), ClientError> {
        self.send(&GuiCommand::Go(params.clone()))?;
        self.search_started = Some(Instant::now());
        Ok(())
    }

    /// Waits up to `timeout` for the `bestmove` of the running search,
    /// keeping the last main-line `info` that had a score or a PV.
    ///
    /// # Errors
    ///
    /// [`ClientError::Timeout`] or [`ClientError::Exited`] if no `bestmove`
    /// comes.
    pub fn wait_bestmove(&mut self, timeout: Duration) -> Result<SearchResult, ClientError> {
        let deadline = Instant::now() + timeout;
        let mut last_info = None;
        loop {
            match self.next_message("bestmove", deadline, timeout)? {
                EngineMessage::Info(info) if is_main_line(&info) => last_info = Some(*info),
                EngineMessage::BestMove { best, ponder } => {
                    let elapsed = self
                        .search_started
                        .take()
                        .map_or(Duration::ZERO, |start| start.elapsed());
                    return Ok(SearchResult {
                        best,
                        ponder,
                        info: last_info,
                        elapsed,
                    });
                }
                _ => {}
            }
        }
    }

    /// Sends `stop` and waits up to `timeout` for the `bestmove` it forces.
    ///
    /// # Errors
    ///
    /// As [`wait_bestmove`](Self::wait_bestmove).
    pub fn stop(&mut self, timeout: Duration) -> Result<SearchResult, ClientError> {
        self.send(&GuiCommand::Stop)?;
        self.wait_bestmove(timeout)
    }

    /// Sends `quit` and waits up to `timeout` for the process to exit; kills
    /// it if it does not. Never fails: the process is gone afterwards.
    pub fn quit(mut self, timeout: Duration) {
        let _ = self.send(&GuiCommand::Quit);
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) => thread::sleep(Duration::from_millis(5)),
            }
        }
        // Drop kills what is left.
    }

    /// The next UCI message, setting garbage aside; fails at `deadline`.
    fn next_message(
        &mut self,
        waiting_for: &'static str,
        deadline: Instant,
        after: Duration,
    ) -> Result<EngineMessage, ClientError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(ReaderEventBox(ReaderEvent::Line(line))) => match EngineMessage::parse(&line) {
                    Ok(msg) => return Ok(msg),
                    Err(UciParseError::Empty) => {}
                    Err(error) => self.set_aside(GarbageLine { line, error }),
                },
                Ok(ReaderEventBox(ReaderEvent::Failed(e))) => return Err(ClientError::Read(e)),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(ClientError::Timeout { waiting_for, after });
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(ClientError::Exited { waiting_for });
                }
            }
        }
    }

    /// Keeps a garbage line, or counts it if too many are kept.
    fn set_aside(&mut self, garbage: GarbageLine) {
        if self.garbage.len() < GARBAGE_KEPT {
            self.garbage.push(garbage);
        } else {
            self.garbage_dropped += 1;
        }
    }
}

impl Drop for UciClient {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether an `info` line speaks about the main line and says something
/// about it (score or PV).
fn is_main_line(info: &Info) -> bool {
    info.multipv.is_none_or(|n| n <= 1) && (info.score.is_some() || !info.pv.is_empty())
}

/// Reads lines (lossily decoded) until end of file or an error, sending each.
fn read_lines(mut reader: impl BufRead, sender: &mpsc::Sender<ReaderEventBox>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => return,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                let line = line.trim_end_matches(['\n', '\r']).to_owned();
                if sender
                    .send(ReaderEventBox(ReaderEvent::Line(line)))
                    .is_err()
                {
                    return;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                let _ = sender.send(ReaderEventBox(ReaderEvent::Failed(e)));
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake engine: a shell script speaking (or failing to speak) UCI.
    fn fake(script: &str, timeout: Duration) -> Result<UciClient, ClientError> {
        UciClient::spawn("/bin/sh", &["-c", script], timeout)
    }

    const SECOND: Duration = Duration::from_secs(1);

    #[test]
    fn handshake_collects_id_options_and_garbage() {
        let mut client = fake(
            "echo 'Fake 1.0 by nobody'; read cmd; echo 'id name Fake 1.0'; echo 'id author A B'; \
             echo ''; echo 'option name Hash type spin default 16 min 1 max 64'; \
             echo 'option name Bogus type wrong'; echo uciok; sleep 5",
            5 * SECOND,
        )
        .unwrap();
        assert_eq!(client.name(), Some("Fake 1.0"));
        assert_eq!(client.author(), Some("A B"));
        assert_eq!(client.options().len(), 1);
        assert!(client.option("hash").is_some());
        let (garbage, dropped) = client.take_garbage();
        assert_eq!(dropped, 0);
        assert_eq!(garbage.len(), 2);
        assert_eq!(garbage[0].line, "Fake 1.0 by nobody");
        assert!(matches!(
            garbage[0].error,
            UciParseError::UnknownCommand { .. }
        ));
        assert!(matches!(
            client.set_option("Threads", Some("2")),
            Err(ClientError::UnknownOption { .. })
        ));
        assert!(client.set_option("HASH", Some("32")).is_ok());
    }

    #[test]
    fn silent_engine_times_out() {
        let start = Instant::now();
        let err = fake("sleep 10", Duration::from_millis(200)).unwrap_err();
        assert!(matches!(
            err,
            ClientError::Timeout {
                waiting_for: "uciok",
                ..
            }
        ));
        assert!(start.elapsed() < 5 * SECOND);
    }

    #[test]
    fn dying_engine_is_reported() {
        let err = fake("read cmd; echo 'id name X'", 5 * SECOND).unwrap_err();
        assert!(matches!(
            err,
            ClientError::Exited {
                waiting_for: "uciok"
            }
        ));
    }

    #[test]
    fn missing_program_is_a_spawn_error() {
        let err = UciClient::spawn("/nonexistent/engine", &[] as &[&str], SECOND).unwrap_err();
        assert!(matches!(err, ClientError::Spawn { .. }));
        assert!(err.to_string().contains("/nonexistent/engine"));
    }

    #[test]
    fn go_keeps_last_main_line_info_and_skips_bad_lines() {
        let mut client = fake(
            "read cmd; echo uciok; read cmd; \
             echo 'info depth 1 score cp 10 pv e2e4'; echo 'info depth 2 score mate 3 pv d2d4 d7d5'; \
             echo 'info depth 2 multipv 2 score cp -5 pv c2c4'; echo 'info string hello'; \
             echo 'bestmove e9e4'; echo 'bestmove d2d4 ponder d7d5'; sleep 5",
            5 * SECOND,
        )
        .unwrap();
        let result = client.go(&GoParams::default(), 5 * SECOND).unwrap();
        assert_eq!(result.best.to_string(), "d2d4");
        assert_eq!(
            result.ponder.map(|m| m.to_string()).as_deref(),
            Some("d7d5")
        );
        let info = result.info.unwrap();
        assert_eq!(info.depth, Some(2));
        assert_eq!(info.pv.len(), 2);
        let (garbage, _) = client.take_garbage();
        assert_eq!(garbage.len(), 1);
        assert!(matches!(
            garbage[0].error,
            UciParseError::InvalidMove { index: 1, .. }
        ));
    }

    #[test]
    fn go_times_out_then_stop_gets_the_move() {
        let mut client = fake(
            "read cmd; echo uciok; read cmd; read cmd; echo 'bestmove a2a3'; sleep 5",
            5 * SECOND,
        )
        .unwrap();
        let err = client
            .go(&GoParams::default(), Duration::from_millis(100))
            .unwrap_err();
        assert!(matches!(
            err,
            ClientError::Timeout {
                waiting_for: "bestmove",
                ..
            }
        ));
        let result = client.stop(5 * SECOND).unwrap();
        assert_eq!(result.best.to_string(), "a2a3");
    }

    #[test]
    fn non_utf8_and_newlines_never_panic() {
        let mut client = fake(
            "read cmd; printf 'id name \\377\\376\\r\\nuciok\\r\\n'; sleep 5",
            5 * SECOND,
        )
        .unwrap();
        assert_eq!(client.name(), Some("\u{fffd}\u{fffd}"));
        let bad = GuiCommand::SetOption {
            name: "a\nb".into(),
            value: None,
        };
        assert!(matches!(client.send(&bad), Err(ClientError::MultiLine(_))));
    }

    #[test]
    fn quit_ends_a_cooperative_engine() {
        let client = fake(
            "read cmd; echo uciok; read cmd; [ \"$cmd\" = quit ] && exit 0; sleep 10",
            5 * SECOND,
        )
        .unwrap();
        let start = Instant::now();
        client.quit(5 * SECOND);
        assert!(start.elapsed() < 4 * SECOND);
    }
}
