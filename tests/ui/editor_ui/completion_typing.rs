//! Typing with the completion list on: the same keys give the same text at
//! any speed and in any grouping of keys into frames, and words typed out
//! in full give exactly what was typed (the rule in `docs/editor.md`).

use super::*;
use proptest::prelude::*;

/// A rig whose names prefix each other (`arm`, `arm.hand`; `leg`,
/// `leg.foot`), the cursor at the end of an animation section.
const START: &str = "skeleton\n\tarm l40\n\t\t@ :rect w10 h4\n\tarm.hand l20\n\tleg l30\n\tleg.foot l10\nanim \"wave\" 10fps\n";

/// Words of the language and of the rig, whole and in part.
const WORDS: &[&str] = &[
    "arm", "arm.hand", "ar", "leg", "leg.foot", "le", "r", "x", "y", "sx", "0", "90", "->",
    ":sio->", "si", "li", "anim", "skeleton", "skel", "@", "hand", "order", "orde", "10fps",
    "\"walk\"",
];

#[derive(Clone, Debug)]
enum Op {
    /// A word, one key per character.
    Word(&'static str),
    Space,
    Enter,
    /// Tab; in the "intended text" property only right after Enter.
    Tab,
    Backspace,
    Up,
    Down,
    Left,
    Right,
    CtrlSpace,
    Escape,
}

fn word() -> impl Strategy<Value = Op> {
    proptest::sample::select(WORDS).prop_map(Op::Word)
}

/// Words, spaces, new lines, indentation and backspaces: keys whose text a
/// person can say in advance.
fn plain_op() -> impl Strategy<Value = Vec<Op>> {
    prop_oneof![
        6 => word().prop_map(|w| vec![w]),
        3 => Just(vec![Op::Space]),
        3 => Just(vec![Op::Enter]),
        2 => Just(vec![Op::Enter, Op::Tab]),
        2 => Just(vec![Op::Enter, Op::Tab, Op::Tab]),
        2 => Just(vec![Op::Backspace]),
    ]
}

/// Any key the list may take, anywhere.
fn any_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => word(),
        2 => Just(Op::Space),
        3 => Just(Op::Enter),
        2 => Just(Op::Tab),
        2 => Just(Op::Backspace),
        2 => Just(Op::Up),
        2 => Just(Op::Down),
        1 => Just(Op::Left),
        1 => Just(Op::Right),
        1 => Just(Op::CtrlSpace),
        1 => Just(Op::Escape),
    ]
}

/// The keyboard events of `op`, presses and releases as a keyboard sends them.
fn events(op: &Op) -> Vec<Event> {
    let key = |k: Key, m: Modifiers| vec![key_event(k, m, true), key_event(k, m, false)];
    match op {
        Op::Word(w) => w.chars().map(|c| Event::Text(c.to_string())).collect(),
        Op::Space => vec![Event::Text(" ".into())],
        Op::Enter => key(Key::Enter, Modifiers::NONE),
        Op::Tab => key(Key::Tab, Modifiers::NONE),
        Op::Backspace => key(Key::Backspace, Modifiers::NONE),
        Op::Up => key(Key::ArrowUp, Modifiers::NONE),
        Op::Down => key(Key::ArrowDown, Modifiers::NONE),
        Op::Left => key(Key::ArrowLeft, Modifiers::NONE),
        Op::Right => key(Key::ArrowRight, Modifiers::NONE),
        Op::CtrlSpace => key(Key::Space, Modifiers::CTRL),
        Op::Escape => key(Key::Escape, Modifiers::NONE),
    }
}

/// Types `ops` into a fresh editor at the end of [`START`], a new frame
/// after each key press when `one_per_frame`, else all in one frame.
fn typed(ops: &[Op], one_per_frame: bool) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "c.skel2d", START);
    let mut h = Setup::new(Some(&path)).build();
    focus_editor_at(&mut h, START.len());
    let mut n = 0;
    for e in ops.iter().flat_map(events) {
        let press = matches!(e, Event::Text(_) | Event::Key { pressed: true, .. });
        h.event(e);
        n += 1;
        if one_per_frame && press {
            h.step();
        }
    }
    // Enough frames for every held-back key.
    h.run_steps(n + 2);
    h.state().doc.text.clone()
}

/// What `ops` say, with no list: characters as typed, Enter a new line
/// with the current line's indentation, Tab a tab, Backspace one
/// character less.
fn intended(ops: &[Op]) -> String {
    let mut t = START.to_string();
    for op in ops {
        match op {
            Op::Word(w) => t.push_str(w),
            Op::Space => t.push(' '),
            Op::Enter => {
                let line = &t[t.rfind('\n').map_or(0, |i| i + 1)..];
                let indent: String = line.chars().take_while(|c| *c == '\t' || *c == ' ').collect();
                t.push('\n');
                t.push_str(&indent);
            }
            Op::Tab => t.push('\t'),
            Op::Backspace => {
                t.pop();
            }
            _ => unreachable!("not a plain key"),
        }
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Words typed out in full, with new lines, tabs after them and
    /// backspaces, type exactly what was typed, one key per frame and all in
    /// one frame: the list never takes Enter from a word typed by hand, and
    /// Tab right after Enter is a tab.
    #[test]
    fn words_and_keys_type_the_same_text_at_any_speed_with_completion_on(
        groups in proptest::collection::vec(plain_op(), 1..16),
    ) {
        let ops: Vec<Op> = groups.into_iter().flatten().collect();
        let want = intended(&ops);
        prop_assert_eq!(&typed(&ops, true), &want);
        prop_assert_eq!(&typed(&ops, false), &want);
    }

    /// Any keys the list takes (Up, Down, Tab, Enter, Ctrl+Space, Escape,
    /// cursor keys) type the same text one key per frame as all in one frame.
    #[test]
    fn list_keys_type_the_same_text_at_any_speed(
        ops in proptest::collection::vec(any_op(), 1..20),
    ) {
        prop_assert_eq!(typed(&ops, false), typed(&ops, true));
    }
}

/// The cases the issue found: `skeleton⏎` and `arm⏎` in one frame or one
/// key per frame make a new line; `ar` then Tab completes to `arm`.
#[test]
fn a_whole_word_and_enter_is_that_word_and_a_new_line() {
    for one_per_frame in [true, false] {
        let ops = [Op::Enter, Op::Word("skeleton"), Op::Enter, Op::Tab, Op::Word("arm"), Op::Enter];
        assert_eq!(typed(&ops, one_per_frame), format!("{START}\nskeleton\n\tarm\n\t"));
        let ops = [Op::Tab, Op::Word("arm"), Op::Enter, Op::Tab, Op::Word("r")];
        assert_eq!(typed(&ops, one_per_frame), format!("{START}\tarm\n\t\tr"));
        let ops = [Op::Tab, Op::Word("ar"), Op::Tab];
        assert_eq!(typed(&ops, one_per_frame), format!("{START}\tarm"));
        // Down moves in the list, so Enter takes the row chosen.
        let ops = [Op::Tab, Op::Word("arm"), Op::Down, Op::Enter];
        assert_eq!(typed(&ops, one_per_frame), format!("{START}\tarm.hand"));
    }
}
