//! The workload of the `machine_reference` benches (in `styles` and `lsp`):
//! work that owes nothing to skelpad, timed beside skelpad's figures to say
//! how fast the shared machine was at that moment. Never change it: figures
//! compare across passes only while it stays the same.

/// A fixed text for `machine_reference`: 12 000 lines of a word and three
/// numbers, from a fixed xorshift sequence (about 330 KB, like the
/// 1000-bone scripts).
pub fn reference_text() -> String {
    use std::fmt::Write as _;
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut text = String::new();
    for _ in 0..12_000 {
        let (a, b, c, d) = (next(), next(), next(), next());
        let _ = writeln!(
            text,
            "\tpart_{:x}.{:x} {}.{} -{}.{} {}",
            a % 4096,
            b % 65536,
            c % 1000,
            c % 97,
            d % 500,
            d % 89,
            a % 360
        );
    }
    text
}

/// The workload of `machine_reference`: std's line splitting, float
/// parsing, `String` allocation and sorting over [`reference_text`].
pub fn reference_work(text: &str) -> (usize, f64) {
    let mut words = Vec::new();
    let mut sum = 0.0;
    for line in text.lines() {
        let mut fields = line.split_ascii_whitespace();
        if let Some(word) = fields.next() {
            words.push(word.to_string());
        }
        sum += fields.filter_map(|f| f.parse::<f64>().ok()).sum::<f64>();
    }
    words.sort_unstable();
    words.dedup();
    (words.len(), sum)
}

/// One round of the machine reference: [`reference_work`] on `threads`
/// threads at once (this one and `threads - 1` more), each result the same.
pub fn reference_round(text: &str, threads: usize) -> (usize, f64) {
    std::thread::scope(|s| {
        let others: Vec<_> = (1..threads).map(|_| s.spawn(|| reference_work(text))).collect();
        let mine = reference_work(text);
        others.into_iter().map(|h| h.join().expect("no panic")).fold(mine, |a, b| {
            assert_eq!(a.0, b.0);
            a
        })
    })
}
