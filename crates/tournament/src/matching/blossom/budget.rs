//! When a warm solve gives up and starts afresh (`blossom/restart.rs`):
//! its budget of scanned edges, and what its first stages tell of the
//! rest.

/// A warm solve gives up and starts afresh once it has scanned more than
/// this many times n² edges: about what a fresh start scans (n/2 stages
/// of a few scanned vertices, n edges each). Some warm solves of a
/// tenth of the vertices rescan their roots at every stage (232 s at
/// 9,998 players), others of the same size take a tenth of a second.
pub(super) const BUDGET: u64 = 2;

/// A warm solve that has run this many stages gives up at once when its
/// pace so far (edges scanned a stage) times the stages still needed (at
/// least half its roots) would exceed [`BUDGET`]: a warm solve that
/// rescans its roots at every stage is known as such after a few stages,
/// not only once it has spent the whole budget (at 10,000 players one
/// spent 202 M edge visits in 102 stages before starting afresh).
/// Before that, see [`gives_up`].
pub(super) const PROBE: u64 = 16;

/// Whether a warm solve that has scanned `scanned` edges in `stages`
/// stages (one or more), with `roots` roots left, gives up before its
/// next stage: its pace so far times the stages still needed, added to
/// what it has scanned, exceeds `budget`, by [`PROBE`]`/stages` times
/// while it has run fewer than [`PROBE`] stages. The fewer the stages,
/// the less the pace says, so the larger the excess it takes; a warm
/// solve whose first stage alone projects to many budgets gives up at
/// once (at 10,000 players, seed 42, one that projected to 75 budgets
/// spent 3.8 s in the 16 stages before its fresh start).
pub(super) fn gives_up(scanned: u64, stages: u64, roots: u64, budget: u64) -> bool {
    let projected = scanned.saturating_add((scanned / stages).saturating_mul(roots.div_ceil(2)));
    projected.saturating_mul(stages.min(PROBE)) > budget.saturating_mul(PROBE)
}

#[cfg(test)]
mod tests {
    use super::{PROBE, gives_up};

    #[test]
    fn a_warm_solve_gives_up_early_only_when_far_over_budget() {
        let budget = 2_000_000;
        // From PROBE stages on: the projection against the budget itself.
        for stages in [PROBE, PROBE + 1, 40] {
            // 10,000 a stage: 10,000·stages + 10,000·45 against 2 M.
            let at = |roots| gives_up(10_000 * stages, stages, roots, budget);
            let limit = (budget / 10_000 - stages) * 2;
            assert!(!at(limit), "{stages} stages, {limit} roots");
            assert!(at(limit + 1), "{stages} stages, {} roots", limit + 1);
        }
        // After one stage: only a projection above PROBE budgets.
        let scanned = 100_000;
        let over = |roots: u64| scanned + scanned * roots.div_ceil(2);
        assert!(over(100) > budget && !gives_up(scanned, 1, 100, budget));
        let roots = 2 * (PROBE * budget / scanned - 1);
        assert!(over(roots) <= PROBE * budget && !gives_up(scanned, 1, roots, budget));
        assert!(gives_up(scanned, 1, roots + 1, budget));
        // After four stages: above PROBE / 4 budgets.
        let pace = 100_000;
        let four = |roots| gives_up(4 * pace, 4, roots, budget);
        let limit = 2 * (PROBE / 4 * budget / pace - 4);
        assert!(!four(limit) && four(limit + 1), "{limit} roots");
        // No overflow on huge counts.
        assert!(gives_up(u64::MAX / 2, 1, u64::MAX, budget));
    }
}
