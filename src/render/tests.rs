//! Draw-list tests: what is drawn, in which order and color, and what the
//! cache keeps.
