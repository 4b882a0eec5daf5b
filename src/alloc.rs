//! The one setting skelpad gives its allocator (feature `mimalloc`).
//!
//! The binary, the benches and `examples/profile_pipeline` install mimalloc
//! as their global allocator; the library never does. mimalloc returns
//! ("purges") freed memory to the operating system once it has stayed free
//! for a second. Every compile frees the last compilation's trees and builds
//! new ones, so in an editor that compiles on each keystroke, or any process
//! that lives longer than a second, the next compile faults those pages back
//! in, and each 2 MiB huge page is zeroed again by the kernel. Measured on
//! the 1000-bone `everything` script: 2140 page faults over 301 compiles
//! with purging, 193 without (BENCHMARKS.md, "Fourteenth pass").
//!
//! [`keep_freed_memory`] turns purging off, so a process holds on to the
//! memory of its largest compilation (tens of MiB for a 5000-bone script)
//! and reuses it. A user's `MIMALLOC_PURGE_DELAY` still wins.
//!
//! This is the crate's only `unsafe` code (`unsafe_code` is denied
//! everywhere else; `tests/suite/layering.rs` checks that no other file allows it).

/// The allocator the binary, the benches and the profiling example install:
/// `skelpad::global_allocator!();` at the top of each, then
/// [`keep_freed_memory`] first thing in `main`.
pub use mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (v3 `mimalloc.h`, `mi_option_e`: the
/// 16th entry). `libmimalloc-sys` does not name it; the test below checks the
/// number against the option's documented default.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Turns off mimalloc's purging of freed memory unless the environment sets
/// `MIMALLOC_PURGE_DELAY`. Call it first thing in `main`, before any thread
/// starts: mimalloc's option setters are not thread-safe.
pub fn keep_freed_memory() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
        return;
    }
    set_purge_delay(-1);
}

#[allow(unsafe_code, reason = "mimalloc's options are set through its C API")]
fn set_purge_delay(ms: std::os::raw::c_long) {
    // SAFETY: `mi_option_set` takes an option number and a value by value and
    // writes one entry of mimalloc's static option table; `PURGE_DELAY` is
    // within that table. The only hazard is a data race with another thread
    // reading the option, which callers rule out by calling this before they
    // start threads (the function's documented contract).
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, ms) }
}

#[cfg(test)]
mod tests {
    #[allow(unsafe_code, reason = "reads mimalloc's option table")]
    fn get(option: libmimalloc_sys::mi_option_t) -> std::os::raw::c_long {
        // SAFETY: reading an option by number; no other test sets this one.
        unsafe { libmimalloc_sys::mi_option_get(option) }
    }

    #[test]
    fn the_purge_delay_option_is_the_one_this_module_sets() {
        // mimalloc v3's default purge delay is 1000 ms; no other option of
        // its table defaults to 1000, so this pins the number. The test
        // process never calls `keep_freed_memory`.
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
            assert_eq!(get(super::PURGE_DELAY), 1000);
        }
        // Options after it: `use_numa_nodes` (0) and `os_tag` (100) bracket it.
        assert_eq!(get(super::PURGE_DELAY + 3), 100);
    }
}
