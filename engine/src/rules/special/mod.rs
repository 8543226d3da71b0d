//! The closed set of special rules. Each lives in its own module with its data, the tables it
//! builds, its hooks and its tests; a variant names the ones in force in `VariantSpec::rules`.
//!
//! Hooks a rule may use (called only where the variant has the rule):
//! - **build**: adjust the variant's tables once (squares a kind may not enter, squares attacked
//!   by a neutral piece, the squares of a special move);
//! - **extra moves**: pseudo-legal moves the orthodox generator does not make (the rendezvous);
//! - **make**: side effects of its own move kind (the rendezvous swaps two pieces and spends a right);
//! - **outcome**: game-ending conditions (the citadel draw).
//!
//! Rules planned for later games fit the same hooks: a legality filter (Parsi Chess's ban on
//! stalemating moves), rights bits spent by a special move (the Parsi king's knight leap, like the
//! rendezvous rights), promotion targets computed from the captured material (a promotion hook that
//! filters `promotion_kinds`), and drops (a move kind that puts a prisoner back on the board).

pub mod all_seeing_eye;
pub mod centre_square;
pub mod citadel_draw;
pub mod rendezvous;

use super::{geometry::Square, tables::Tables, variant::Coord};

/// A special rule in force in a variant, with its data.
#[derive(Clone, Copy, Debug)]
pub enum Rule {
    /// Once per game per side, a princess (or champion) on g2 swaps with a bishop on h2.
    Rendezvous(rendezvous::Rendezvous),
    /// Only some kinds may end a move on the centre square; sliders pass it when it is empty.
    CentreSquare(centre_square::CentreSquare),
    /// The Egyptian Eye's All-Seeing Eye: a neutral piece on the centre square that attacks its
    /// diagonals through pieces and cannot be entered.
    AllSeeingEye(all_seeing_eye::AllSeeingEye),
    /// A king arriving on an opponent's citadel draws at once.
    CitadelDraw(citadel_draw::CitadelDraw),
}

impl Rule {
    /// The build hook: adjusts the tables of the variant.
    pub(crate) fn build(&self, tables: &mut Tables, resolve: &dyn Fn(Coord) -> Square) {
        match self {
            Rule::Rendezvous(r) => r.build(tables, resolve),
            Rule::CentreSquare(r) => r.build(tables, resolve),
            Rule::AllSeeingEye(r) => r.build(tables, resolve),
            Rule::CitadelDraw(r) => r.build(tables, resolve),
        }
    }
}
