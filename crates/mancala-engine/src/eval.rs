//! Static evaluation: how good a position looks for the player to move.

use mancala_core::description::{Leftover, Row};
use mancala_core::variants::RuleSet;
use mancala_core::{Position, Side, Variant, with_rule_set};

use crate::Score;

/// Weights of the evaluation terms, in [`Score`] units per seed (or per house).
///
/// Each term is the player to move's count less the opponent's:
/// - `store`: seeds in the store, or captured in a game without stores;
/// - `row`: seeds on the player's own row;
/// - `mobility`: houses that are not empty (moves to choose from);
/// - `reach`: with extra turns, houses whose seeds end exactly in the store;
///   otherwise houses with enough seeds to go round the board (12 or more on six
///   houses);
/// - `threat`: with extra turns, the most seeds one move captures; otherwise the
///   opponent's houses one seed from a capture by their count
///   ([`RuleSet::captures_at`]: one or two seeds where 2s and 3s are taken, an odd
///   number where even counts are);
/// - `claim`: houses claimed on the opponent's row (in a game whose captures claim
///   houses, every seed sown into one goes to its owner for the rest of the game).
///
/// The terms `mobility`, `reach` and `threat` cost a pass over the houses, so they are
/// only computed when weighted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Weights {
    /// Per seed of store (or captures) difference.
    pub store: i32,
    /// Per seed of difference in the seeds on each player's own row.
    pub row: i32,
    /// Per house of difference in houses that are not empty.
    pub mobility: i32,
    /// Per house of difference in houses that reach the store (with extra turns) or
    /// go round the board (without).
    pub reach: i32,
    /// Per seed (with extra turns) or house (without) of difference in capture threats.
    pub threat: i32,
    /// Per house of difference in claimed houses.
    pub claim: i32,
}

impl Weights {
    /// The weights used for `variant`, chosen by what its rules say rather than by its
    /// name, so that every described game gets the weights of the games it plays like:
    ///
    /// - Extra turns into stores: a player's final score is
    ///   their store plus their own row, but seeds on the row can still be captured or
    ///   sown across, so a row seed counts a quarter of a store seed. Weights fitted to
    ///   self-play results (`mancala bench tune`) won no more games than these
    ///   (docs/ladder.md).
    /// - Claimed houses: fitted by logistic regression
    ///   (`mancala bench tune --variant togyzkumalak --games 1000 --depth 6 --store 8`),
    ///   kept because they won 80.5% of 100 games against store 8, row 1, mobility 2 at
    ///   20,000 nodes a move (docs/ladder.md). A claimed house is worth about 16
    ///   captured seeds: every seed sown into it for the rest of the game is its owner's.
    /// - Feeding an opponent with no seeds: fitted the same
    ///   way (`--variant oware`), kept because they won matches against the store and
    ///   row terms alone. Moves to choose from and houses that can go round the board
    ///   count for much where a player who cannot be fed loses the rest.
    /// - Any other game: fitted the same way (`--variant
    ///   oware-simplified`), except that a seed on the own row counts nothing in a game
    ///   whose seeds left at the end count for nobody and whose captures take from either
    ///   row: such a seed is neither player's (in Ntyenge and Vai Lung Thlan 4,000-node
    ///   searches without the row term scored 93% and 99% of 100 games against the same
    ///   searches with it; docs/ladder.md).
    ///
    /// ```
    /// use mancala_core::Variant;
    /// use mancala_engine::Weights;
    /// assert_eq!(Weights::for_variant(Variant::Kalah).row, 2);
    /// assert_eq!(Weights::for_variant(Variant::TogyzKumalak).claim, 129);
    /// ```
    #[must_use]
    pub fn for_variant(variant: Variant) -> Weights {
        let info = variant.info();
        if info.extra_turns {
            Weights {
                store: 8,
                row: 2,
                mobility: 0,
                reach: 0,
                threat: 0,
                claim: 0,
            }
        } else if info.claims {
            Weights {
                store: 8,
                row: 1,
                mobility: 23,
                reach: -10,
                threat: 11,
                claim: 129,
            }
        } else if info.must_feed {
            Weights {
                store: 8,
                row: -1,
                mobility: 13,
                reach: 17,
                threat: 3,
                claim: 0,
            }
        } else {
            Weights {
                store: 8,
                row: if row_is_nobodys(variant) { 0 } else { 2 },
                mobility: 3,
                reach: 2,
                threat: 1,
                claim: 0,
            }
        }
    }

    /// Whether any term after `row` is weighted.
    const fn has_house_terms(&self) -> bool {
        self.mobility != 0 || self.reach != 0 || self.threat != 0
    }
}

/// Whether a seed on a player's own row is neither player's: the seeds left at the end
/// count for nobody and captures take from either row (Ntyenge, Vai Lung Thlan), so a
/// row seed is no more the owner's than the opponent's.
fn row_is_nobodys(variant: Variant) -> bool {
    let Variant::Described(game) = variant else {
        return false;
    };
    let d = game.description();
    d.end.leftover == Leftover::Nobody && d.capture.iter().any(|c| c.row == Row::Either)
}

/// The evaluation's terms for the player to move, in the order of [`Weights`]'
/// fields: each the mover's count less the opponent's.
///
/// ```
/// use mancala_core::{Position, Rules};
/// use mancala_engine::features;
/// // The start of Kalah(6,4): level, but house 3 of either player reaches the store.
/// assert_eq!(features(&Position::new(Rules::kalah(6, 4))), [0; 6]);
/// ```
#[must_use]
pub fn features(pos: &Position) -> [i32; 6] {
    let me = pos.to_move();
    let opp = me.opponent();
    let [mine, theirs] =
        with_rule_set!(pos.variant(), R => [me, opp].map(|side| HouseTerms::of::<R>(pos, side)));
    [
        store_term(pos),
        row_term(pos),
        mine.mobility - theirs.mobility,
        mine.reach - theirs.reach,
        mine.threat - theirs.threat,
        claim_term(pos),
    ]
}

/// Seeds banked: the mover's less the opponent's.
#[inline]
fn store_term(pos: &Position) -> i32 {
    let me = pos.to_move();
    i32::from(pos.store(me)) - i32::from(pos.store(me.opponent()))
}

/// Seeds on the own row: the mover's less the opponent's.
#[inline]
fn row_term(pos: &Position) -> i32 {
    let me = pos.to_move();
    i32::from(pos.row_sum(me)) - i32::from(pos.row_sum(me.opponent()))
}

/// Claimed houses: the mover's less the opponent's.
#[inline]
fn claim_term(pos: &Position) -> i32 {
    let me = pos.to_move();
    i32::from(pos.claimed(me).is_some()) - i32::from(pos.claimed(me.opponent()).is_some())
}

/// One player's counts for the house terms of [`Weights`].
struct HouseTerms {
    mobility: i32,
    reach: i32,
    threat: i32,
}

impl HouseTerms {
    /// The counts of `side` in a position of `R`'s variant.
    #[inline]
    fn of<R: RuleSet>(pos: &Position, side: Side) -> HouseTerms {
        let own = pos.houses(side);
        let other = pos.houses(side.opponent());
        let h = own.len();
        let mobility = own.iter().filter(|&&n| n > 0).count() as i32;
        if R::info(pos).extra_turns {
            // Sowing into the own store: house i's last seed lands i + n houses
            // on: in the store at h, on the own row below it (without going round,
            // which takes 2h + 1 seeds).
            let mut reach = 0;
            let mut threat = 0;
            for (i, &n) in own.iter().enumerate() {
                let land = i + usize::from(n);
                if n > 0 && land == h {
                    reach += 1;
                } else if n > 0 && land < h && own[land] == 0 && other[h - 1 - land] > 0 {
                    threat = threat.max(i32::from(other[h - 1 - land]) + 1);
                }
            }
            HouseTerms {
                mobility,
                reach,
                threat,
            }
        } else {
            let lap = 2 * h as u16;
            HouseTerms {
                mobility,
                reach: own.iter().filter(|&&n| n >= lap).count() as i32,
                threat: other
                    .iter()
                    .filter(|&&n| R::captures_at(pos, n + 1))
                    .count() as i32,
            }
        }
    }
}

/// The static value of `pos` for the player to move: the exact result if the game is
/// over, otherwise the weighted terms of [`Weights::for_variant`].
///
/// ```
/// use mancala_core::{Move, Position, Rules};
/// use mancala_engine::{evaluate, Score};
/// let start = Position::new(Rules::kalah(6, 4));
/// assert_eq!(evaluate(&start), Score::DRAW);
/// // After house 3 player 1 moves again: one seed up in the store (8 units), one seed
/// // down on the row (-2 units).
/// let p = start.play(Move::new(3).unwrap()).unwrap();
/// assert_eq!(evaluate(&p), Score::heuristic(6));
/// ```
#[inline]
#[must_use]
pub fn evaluate(pos: &Position) -> Score {
    evaluate_with(pos, Weights::for_variant(pos.variant()))
}

/// [`evaluate`] with other weights (for tuning).
#[inline]
#[must_use]
pub fn evaluate_with(pos: &Position, w: Weights) -> Score {
    let me = pos.to_move();
    if pos.is_over() {
        return Score::final_for(pos, me);
    }
    if w.has_house_terms() {
        let f = features(pos);
        let units = w.store * f[0] + w.row * f[1] + w.mobility * f[2] + w.reach * f[3];
        return Score::heuristic(units + w.threat * f[4] + w.claim * f[5]);
    }
    let row = if w.row == 0 { 0 } else { row_term(pos) };
    let claim = if w.claim == 0 { 0 } else { claim_term(pos) };
    Score::heuristic(w.store * store_term(pos) + w.row * row + w.claim * claim)
}

#[cfg(test)]
mod tests {
    use mancala_core::{Position, Rules, Side};
    use proptest::prelude::*;

    use super::*;

    /// Kalah(3,3), South to move: house 1 (2 seeds) lands in empty house 3 opposite
    /// North's 4 seeds, a capture of 5; house 2 (1 seed) would too but house 3 is the
    /// best; no house reaches the store exactly. North: house 2 (2 seeds) reaches it.
    #[test]
    fn kalah_terms_count_what_each_player_could_do_next() {
        let rules = Rules::kalah(3, 3);
        let south: &[u16] = &[2, 1, 0];
        let north: &[u16] = &[4, 2, 0];
        let p = Position::from_parts(rules, [south, north], [5, 4], Side::South).unwrap();
        // store, row, mobility, reach, threat: each South's less North's.
        assert_eq!(features(&p), [1, -3, 0, -1, 5, 0]);
        let north_view = Position::from_parts(rules, [south, north], [5, 4], Side::North).unwrap();
        assert_eq!(features(&north_view), [-1, 3, 0, 1, -5, 0]);
    }

    #[test]
    fn oware_terms_count_big_houses_and_houses_of_one_or_two() {
        let rules = Rules::oware(6, 4);
        let south: &[u16] = &[12, 1, 2, 0, 0, 3];
        let north: &[u16] = &[1, 1, 0, 0, 5, 6];
        let p = Position::from_parts(rules, [south, north], [10, 7], Side::South).unwrap();
        // Four houses not empty a side; South has one of twelve; two houses of one or two
        // seeds a side.
        assert_eq!(features(&p), [3, 5, 0, 1, 0, 0]);
    }

    /// Togyz Kumalak(3,3) with a tuzdyk for South on North's house 1: the threats are
    /// North's odd houses (one seed makes them even), and the tuzdyk counts.
    #[test]
    fn togyz_terms_count_odd_houses_and_tuzdyks() {
        let rules = Rules::togyz_kumalak(3, 3);
        let south: &[u16] = &[5, 0, 2];
        let north: &[u16] = &[0, 1, 3];
        let p = Position::from_parts(rules, [south, north], [4, 3], Side::South)
            .unwrap()
            .with_claims([Some(mancala_core::Move::new(1).unwrap()), None])
            .unwrap();
        // store, row, mobility, reach, threat, tuzdyk: each South's less North's.
        assert_eq!(features(&p), [1, 3, 0, 0, 1, 1]);
    }

    /// A row seed counts nothing where the seeds left count for nobody and captures take
    /// from either row; it still counts where either half of that does not hold.
    #[test]
    fn row_seeds_count_nothing_where_they_are_neither_players() {
        let row = |key: &str| Weights::for_variant(key.parse::<Variant>().unwrap()).row;
        for key in [
            "ntyenge",
            "vai-lung-thlan",
            "alitev",
            "mankala-niebuhr",
            "khrour",
        ] {
            assert_eq!(row(key), 0, "{key}");
        }
        // Seeds left for nobody, but captures only from the opponent's row: a seed on the
        // own row is the mover's to sow there.
        assert_eq!(row("oware-simplified"), 2);
        // Captures from either row, but each player takes their own row at the end.
        assert_eq!(row("kpo"), 2);
        assert_eq!(row("mangala-turkey"), 2);
    }

    proptest! {
        /// The evaluation is the weighted sum of the terms, whatever the weights, and
        /// the simple path (no house terms) agrees with it.
        #[test]
        fn the_evaluation_is_the_weighted_sum_of_the_terms(
            variant in 0usize..Variant::ALL.len(),
            choices in proptest::collection::vec(0usize..9, 0..80),
            w in proptest::array::uniform6(-20i32..20),
        ) {
            let variant = Variant::ALL[variant];
            let info = variant.info();
            let rules = Rules::new(variant, info.default_houses, info.default_seeds).unwrap();
            let mut p = Position::new(rules);
            for c in choices {
                let moves = p.legal_moves();
                if moves.is_empty() || p.is_over() {
                    break;
                }
                p = p.play(moves[c % moves.len()]).unwrap();
            }
            prop_assume!(!p.is_over());
            let weights = Weights {
                store: w[0],
                row: w[1],
                mobility: w[2],
                reach: w[3],
                threat: w[4],
                claim: w[5],
            };
            let f = features(&p);
            let sum: i32 = f.iter().zip(w).map(|(f, w)| f * w).sum();
            prop_assert_eq!(evaluate_with(&p, weights), Score::heuristic(sum));
            let simple = Weights { mobility: 0, reach: 0, threat: 0, ..weights };
            prop_assert_eq!(
                evaluate_with(&p, simple),
                Score::heuristic(w[0] * f[0] + w[1] * f[1] + w[5] * f[5])
            );
        }
    }
}
