//! Hints (`h`): the move of the strongest player that answers in about a second. The
//! solver first, exact where it reaches (late in a game, on small boards); where it
//! does not, `master`'s search. The hint says which of the two found it.

use std::time::Duration;

use mancala_core::Rules;
use mancala_engine::{Choice, Perfect, Player, PlayerSpec};

use super::game::GameState;
use super::view::{Message, MessageKind};

/// The solver's time for a hint; the position is searched when it does not solve.
const SOLVE_TIME: Duration = Duration::from_millis(800);

/// The search's time for a hint the solver could not find.
const SEARCH_SPEC: &str = "master:ms=600";

/// The table the solver keeps from hint to hint, in MiB.
const SOLVER_TABLE_MB: usize = 64;

/// What [`Perfect`] adds to its reason when it could not solve the position.
const NOT_SOLVED: &str = " (not perfect play";

/// The player that finds hints for a game under `rules`: the solver, with `master`
/// to fall back on (the `expert` level where `master` cannot be built).
pub(crate) fn hinter(rules: Rules, seed: u64) -> Box<dyn Player> {
    let build = |spec: &str| {
        spec.parse::<PlayerSpec>()
            .and_then(|s| s.build(rules, seed))
    };
    let search = build(SEARCH_SPEC)
        .or_else(|_| build("expert"))
        .expect("the expert level plays every variant");
    Box::new(Perfect::new(SOLVE_TIME, SOLVER_TABLE_MB, search))
}

/// Who found `choice` and why it is good: `("the solver", "is perfect play: ...")`
/// or, when the position was out of the solver's reach, `master`'s search and its
/// reason.
fn source(choice: &Choice) -> (&'static str, Option<String>) {
    let reason = choice.reason.as_deref().unwrap_or_default();
    match reason.split_once(NOT_SOLVED) {
        Some((said, _)) => (
            "master's search: too far from the end to solve",
            Some(said.to_owned()).filter(|s| !s.is_empty() && s != "was chosen"),
        ),
        None => (
            "the solver: exact",
            Some(reason.to_owned()).filter(|s| !s.is_empty()),
        ),
    }
}

/// Puts the cursor on the hinted house and says who found it and why it is good.
pub(crate) fn show(g: &mut GameState, choice: &Choice) {
    let Some(side) = g.session.to_move() else {
        return;
    };
    g.cursor = choice.mv.house();
    let label = g.label(side, choice.mv.house());
    let (who, why) = source(choice);
    let why = why.map(|r| format!(": it {r}")).unwrap_or_default();
    g.message = Message::new(
        MessageKind::Good,
        format!("Hint ({who}): house {label}{why}. Enter plays it."),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::Game;

    fn choice(reason: &str) -> Choice {
        Choice {
            mv: Game::new(Rules::kalah(6, 4)).legal_moves()[0],
            reason: Some(reason.to_owned()),
        }
    }

    #[test]
    fn a_hint_says_whether_the_solver_or_the_search_found_it() {
        let (who, why) = source(&choice(
            "is perfect play: it leads to a win by 6 for the mover",
        ));
        assert_eq!(who, "the solver: exact");
        assert_eq!(
            why.unwrap(),
            "is perfect play: it leads to a win by 6 for the mover"
        );
        let (who, why) = source(&choice(
            "captures 3 (not perfect play: the position could not be solved in 800 ms, so the master player chose)",
        ));
        assert!(who.starts_with("master's search"), "{who}");
        assert_eq!(why.unwrap(), "captures 3");
    }
}
