//! Two pieces of work at once, on this thread and a second one.

use std::sync::{Mutex, OnceLock};

/// Whether the machine runs two threads at once, asked once (on Linux
/// `available_parallelism` reads the affinity mask and the cgroup's
/// files each time it is called).
pub(crate) fn two_cores() -> bool {
    static TWO: OnceLock<bool> = OnceLock::new();
    *TWO.get_or_init(|| std::thread::available_parallelism().is_ok_and(|p| p.get() > 1))
}

/// Runs `first` on this thread and `second` on a second thread started
/// for it, and returns both results. When the second thread has not
/// begun `second` by the time `first` is done (on a busy machine a new
/// thread may wait for a core), this thread runs `second` itself
/// instead of waiting for it. Either way the results are the same.
pub(crate) fn both<A, B>(first: impl FnOnce() -> A, second: impl FnOnce() -> B + Send) -> (A, B)
where
    B: Send,
{
    let job = Mutex::new(Some(second));
    std::thread::scope(|scope| {
        let other = scope.spawn(|| {
            let second = job.lock().expect("the second job").take();
            second.map(|second| second())
        });
        let a = first();
        let left = job.lock().expect("the second job").take();
        let b = match left {
            Some(second) => second(),
            None => other
                .join()
                .expect("the second thread runs its job")
                .expect("the second thread took the job"),
        };
        (a, b)
    })
}

#[cfg(test)]
mod tests {
    use super::both;

    #[test]
    fn both_results_whoever_runs_the_second() {
        // The second thread takes the job while the first sleeps; with
        // no wait it often has not begun, and this thread runs it.
        let slow = || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            1
        };
        assert_eq!(both(slow, || 2), (1, 2));
        for k in 0..200u64 {
            let mut out = vec![0u64; 4];
            let (head, tail) = out.split_at_mut(2);
            let (a, b) = both(
                || {
                    head.fill(k);
                    k
                },
                move || {
                    tail.fill(k + 1);
                    k + 1
                },
            );
            assert_eq!((a, b), (k, k + 1));
            assert_eq!(out, [k, k, k + 1, k + 1]);
        }
    }
}
