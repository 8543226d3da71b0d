//! A text diagram of a position.

use super::{geometry::Square, position::Position};

impl Position {
    /// The board as text: ranks from the top, holes blank, empty squares `.`, a square no piece
    /// may occupy (the All-Seeing Eye) `*`, file letters below.
    pub fn diagram(&self) -> String {
        let t = self.tables();
        let g = t.geometry;
        let mut out = String::new();
        for rank in (0..g.height as i32).rev() {
            out.push_str(&format!("{:>3} ", rank + 1));
            for file in 0..g.width as i32 {
                let sq = Square((rank * g.width as i32 + file) as u8);
                let c = if !g.is_playable(sq) {
                    ' '
                } else if let Some(p) = self.piece_at(sq) {
                    t.piece_char(p)
                } else if t.blocked.has(sq) {
                    '*'
                } else {
                    '.'
                };
                out.push(' ');
                out.push(c);
            }
            out.push('\n');
        }
        out.push_str("    ");
        for file in 0..g.width {
            out.push(' ');
            out.push((b'a' + file) as char);
        }
        out.push('\n');
        out
    }
}
