//! The editor's tests (feature `app`), driven through egui_kittest with no
//! display: typing, menus, drags, and the highlighter's roles.

#![cfg(feature = "app")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

mod dopesheet_ui;
mod drag_ui;
mod editor_ui;
mod roles;
