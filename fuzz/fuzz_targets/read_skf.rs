//! Feeds arbitrary bytes to `skelpad::formats::skf::read::read_skf`, the
//! reader of untrusted `.skf` files (a zip holding `armature.json`, atlases
//! and `editor.json`). It must return a file or a list of problems — never
//! panic, overflow or allocate without bound. A file it accepts must also
//! pass `validate` on its own (the checks runtimes rely on).
//!
//! Seed it with real files (SkelForm's samples, skelpad's exports) so the
//! fuzzer starts from valid zips; see `fuzz/README.md`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skelpad::formats::skf::read::{read_skf, validate};

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = read_skf(data) {
        assert!(
            validate(&file.armature).is_empty(),
            "read_skf accepted a file that validate rejects"
        );
        assert_eq!(file.atlas_sizes.len(), file.armature.atlases.len());
    }
});
