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

/// A square a board drawing marks besides its piece (the browser board, diagrams).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareMark {
    /// A citadel: a king of the other side arriving here draws.
    Citadel,
    /// The centre square only some kinds may end a move on.
    Centre,
    /// The All-Seeing Eye's square, which no piece may enter.
    Eye,
}

impl SquareMark {
    /// A short lower-case name (`citadel`, `centre`, `eye`), as the arena's JSON writes it.
    pub const fn name(self) -> &'static str {
        match self {
            SquareMark::Citadel => "citadel",
            SquareMark::Centre => "centre",
            SquareMark::Eye => "eye",
        }
    }
}

impl super::variant::VariantSpec {
    /// The squares a drawing of this variant's board marks, from its special rules, sorted.
    pub fn square_marks(&self) -> Vec<(Square, SquareMark)> {
        use super::special::Rule;
        let g = self.geometry;
        let at = |c: super::variant::Coord| g.square(c.0 as i32, c.1 as i32);
        let mut marks = Vec::new();
        for rule in self.rules {
            match rule {
                Rule::CitadelDraw(c) => {
                    for &sq in c.white_targets.iter().chain(c.black_targets) {
                        marks.extend(at(sq).map(|s| (s, SquareMark::Citadel)));
                    }
                }
                Rule::CentreSquare(c) => marks.extend(at(c.square).map(|s| (s, SquareMark::Centre))),
                Rule::AllSeeingEye(e) => marks.extend(at(e.square).map(|s| (s, SquareMark::Eye))),
                _ => {}
            }
        }
        marks.sort_by_key(|m| m.0 .0);
        marks.dedup();
        marks
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Variant;

    #[test]
    fn marks_name_the_citadels_the_centre_and_the_eye() {
        let names = |v: Variant| -> Vec<String> {
            let spec = v.spec();
            spec.square_marks()
                .iter()
                .map(|&(sq, m)| format!("{}:{}", spec.geometry.square_name(sq), m.name()))
                .collect()
        };
        assert_eq!(
            names(Variant::PersianPrincess),
            ["a1:citadel", "k1:citadel", "f6:centre", "a11:citadel", "k11:citadel"]
        );
        assert!(names(Variant::EgyptianEye).contains(&"f6:eye".to_string()));
        assert!(names(Variant::Chess).is_empty());
    }
}
