//! The arena's pages in a real headless Chromium over WebDriver: games played by clicking
//! (`play`), the pages players use (`pages`) and accessibility checked with axe-core (`a11y`).
//!
//! One test binary, one module per subject; the helpers are in `tests/common/`.

#[path = "../common/mod.rs"]
mod common;
mod webdriver;

mod a11y;
mod pages;
mod play;
