//! One file per variant: its [`VariantSpec`](super::VariantSpec).

pub mod celtic_citadel;
pub mod chess;
pub mod egyptian_eye;
pub mod oriental_omega;
pub mod persian_common;
pub mod persian_princess;
