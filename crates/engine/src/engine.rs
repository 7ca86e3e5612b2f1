//! The search thread: typed commands in, reports out.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

use shakmaty::{Chess, Move};
use shakmaty_syzygy::Tablebase;

use crate::search::tt::TranspositionTable;
use crate::search::{IterationReport, Learnt, SearchClock, SearchContext, SearchParams, search_in};

/// The default transposition table size in megabytes.
pub const DEFAULT_HASH_MB: usize = 16;

/// A command for the search thread.
#[derive(Debug, Clone)]
pub enum EngineCommand {
    /// Search this position.
    Start(Box<SearchParams>),
    /// End the running search (it still reports its best move).
    Stop,
    /// The expected move was played: a pondering search starts its clock.
    PonderHit,
    /// Use these Syzygy tables from the next search on (`None`: none).
    SetTablebase(Option<Arc<Tablebase<Chess>>>),
    /// Forget what was learnt (`ucinewgame`).
    NewGame,
    /// Resize the transposition table to this many megabytes.
    SetHash(usize),
    /// End the thread.
    Quit,
}

/// What the search thread reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchReport {
    /// A completed iteration.
    Iteration(IterationReport),
    /// The search ended; `best` is `None` only without legal moves.
    BestMove {
        /// The move to play.
        best: Option<Move>,
        /// The expected reply.
        ponder: Option<Move>,
    },
}

/// A handle on the search thread.
#[derive(Debug)]
pub struct Engine {
    commands: Sender<EngineCommand>,
    stop: Arc<AtomicBool>,
    searching: Arc<AtomicBool>,
    clock: Arc<SearchClock>,
    thread: Option<JoinHandle<()>>,
}

impl Engine {
    /// Starts the thread; reports go to `reports`.
    #[must_use]
    pub fn spawn(reports: Sender<SearchReport>) -> Self {
        let (commands, inbox) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        let searching = Arc::new(AtomicBool::new(false));
        let clock = Arc::new(SearchClock::default());
        let thread = {
            let stop = Arc::clone(&stop);
            let searching = Arc::clone(&searching);
            let clock = Arc::clone(&clock);
            std::thread::spawn(move || worker(&inbox, &reports, &stop, &searching, &clock))
        };
        Self {
            commands,
            stop,
            searching,
            clock,
            thread: Some(thread),
        }
    }

    /// Whether a search is running (from `Start` until its best move is sent).
    #[must_use]
    pub fn is_searching(&self) -> bool {
        self.searching.load(Ordering::SeqCst)
    }

    /// Sends a command. `Start` clears the stop flag and starts the clock;
    /// `Stop` and `Quit` set the flag and `PonderHit` restarts the clock at
    /// once, so a running search sees them without reading the queue.
    pub fn send(&self, command: EngineCommand) {
        match &command {
            EngineCommand::Start(params) => {
                self.stop.store(false, Ordering::SeqCst);
                self.clock.restart(params.limits.ponder);
                self.searching.store(true, Ordering::SeqCst);
            }
            EngineCommand::Stop | EngineCommand::Quit => self.stop.store(true, Ordering::SeqCst),
            EngineCommand::PonderHit => self.clock.ponder_hit(),
            EngineCommand::NewGame | EngineCommand::SetHash(_) | EngineCommand::SetTablebase(_) => {
            }
        }
        // The thread only goes away after `Quit`, which consumes the handle.
        let _ = self.commands.send(command);
    }

    /// Stops any search, waits for its report, and ends the thread.
    pub fn quit(mut self) {
        self.send(EngineCommand::Quit);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some(thread) = self.thread.take() {
            self.stop.store(true, Ordering::SeqCst);
            let _ = self.commands.send(EngineCommand::Quit);
            let _ = thread.join();
        }
    }
}

fn worker(
    inbox: &Receiver<EngineCommand>,
    reports: &Sender<SearchReport>,
    stop: &AtomicBool,
    searching: &AtomicBool,
    clock: &SearchClock,
) {
    let mut tt = TranspositionTable::new(DEFAULT_HASH_MB);
    let mut tablebase = None;
    let learnt = Learnt::default();
    while let Ok(command) = inbox.recv() {
        match command {
            EngineCommand::Start(params) => {
                let ctx = SearchContext {
                    tablebase: tablebase.as_deref(),
                    learnt: Some(&learnt),
                    ..SearchContext::new(&tt, stop, clock)
                };
                let outcome = search_in(*params, &ctx, |report| {
                    let _ = reports.send(SearchReport::Iteration(report.clone()));
                });
                searching.store(false, Ordering::SeqCst);
                let _ = reports.send(SearchReport::BestMove {
                    best: outcome.best,
                    ponder: outcome.ponder,
                });
            }
            EngineCommand::Stop | EngineCommand::PonderHit => {}
            EngineCommand::SetTablebase(tb) => tablebase = tb,
            EngineCommand::NewGame => {
                tt.clear();
                learnt.clear();
            }
            EngineCommand::SetHash(mb) => tt = TranspositionTable::new(mb),
            EngineCommand::Quit => break,
        }
    }
}
