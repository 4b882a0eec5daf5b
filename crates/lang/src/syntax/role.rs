//! Token roles: what the parser understood each token of a section to be.
//!
//! The parser records one [`TokenRole`] for every token it reads (a few
//! tokens are split: the bone reference of a path point `x,y:bone`), with its
//! span relative to the section, in [`super::tree::Section::roles`]. This is
//! the one place the rest of the program learns how the text reads: the
//! editor's highlighting is a mapping from role to style, and a language
//! server's semantic tokens are the same list.
//!
//! Roles are pushed in reading order and merged, not re-sorted: one
//! `(span, role)` per token, sorted, with no allocation per token. A token no
//! recognizer claimed (a rejected token, a line ignored with an invalid one)
//! is `Role::Invalid`. Comments before the first section are
//! `Compilation::leading_roles`; `Compilation::roles()` yields them all in
//! document offsets. `tests/suite/grammar.rs` checks the VS Code TextMate
//! grammar's scopes against these roles with VS Code's own tokenizer.

use super::diag::Span;

/// What a token is, as the parser read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// `skeleton`, `skin`, `order`, `anim` at the start of a header.
    SectionKeyword,
    /// The path of a bone line in a skeleton section (a definition).
    BonePath,
    /// A bone reference: an animation item, a point's `:bone`, `: bone`.
    BoneRef,
    /// `l40`, `r10`, `x5`, `flip-x`, `no-rot`, … on a bone line.
    BoneProperty,
    /// `@`, `@slot`, `@slot[att]` heading a slot line (a definition).
    SlotHead,
    /// A slot reference: `@slot` in a skin, an order or an animation.
    SlotRef,
    /// `:rect`, `:path`, …
    AttachmentType,
    /// An attachment property (`w10`, `x5`, `round-join`) or a timeline's
    /// property letter (`x`, `r`, `@`, `c`).
    Property,
    /// Numbers: timeline values (`10`, `+5`, `*2`), frame rates, points.
    Number,
    /// `#F00`, `#FF8800,0.5`, `f#F00`, `s#000`.
    Color,
    /// `"name"`: skin and animation names, sprite images.
    String,
    /// `true`/`false` in flip timelines.
    Boolean,
    /// An attachment name pushed by an `@` timeline.
    AttachmentRef,
    /// `F:S:E` defaults and in-timeline options (`10:>`, `:si->`).
    Option,
    /// `{`, `}`, `}[3]`.
    Loop,
    /// An event's name (`!footstep` heading an event item or in an
    /// `expect` line) and the `!` that fires a bare event.
    Event,
    /// `->`, `-->`.
    Advance,
    /// `M`, `L`, `Q`, `B`, `C`, `:` of path commands.
    PathCommand,
    /// `# …` to the end of the line.
    Comment,
    /// A token the parser rejected (a diagnostic says why), or a token on a
    /// line that is ignored.
    Invalid,
}

impl Role {
    /// Every role.
    pub const ALL: [Role; 20] = [
        Role::SectionKeyword,
        Role::BonePath,
        Role::BoneRef,
        Role::BoneProperty,
        Role::SlotHead,
        Role::SlotRef,
        Role::AttachmentType,
        Role::Property,
        Role::Number,
        Role::Color,
        Role::String,
        Role::Boolean,
        Role::AttachmentRef,
        Role::Option,
        Role::Loop,
        Role::Event,
        Role::Advance,
        Role::PathCommand,
        Role::Comment,
        Role::Invalid,
    ];
}

/// A role and where its token is (relative to the section, like the rest
/// of the tree; document offsets once a compilation shifts it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenRole {
    /// Where the token (or the part of it) is.
    pub span: Span,
    /// What it is.
    pub role: Role,
}
