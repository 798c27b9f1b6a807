//! Which variants the solver reaches, and how far, apart from the solver itself: its
//! errors name them without depending on the solver's entry points.

use mancala_core::Variant;

/// Whether the solver solves positions of `variant` at all (see `Solver::solves`).
pub(crate) const fn solves(variant: Variant) -> bool {
    match variant {
        Variant::Kalah | Variant::Oware => true,
        Variant::OwareSimplified | Variant::TogyzKumalak | Variant::Described(_) => false,
    }
}

/// About the most seeds in play the solver proves quickly (see `Solver::quick_seeds`).
pub(crate) const fn quick_seeds(variant: Variant) -> u16 {
    match variant {
        Variant::Kalah => 24,
        Variant::Oware => 14,
        Variant::OwareSimplified | Variant::TogyzKumalak | Variant::Described(_) => 0,
    }
}

/// The keys of the variants it solves, for messages: `kalah and oware`.
pub(crate) fn solvable_in_words() -> String {
    let keys: Vec<&str> = Variant::ALL
        .into_iter()
        .filter(|&v| solves(v))
        .map(Variant::name)
        .collect();
    match keys.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => keys.concat(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_solvable_variants_read_as_a_list() {
        assert_eq!(super::solvable_in_words(), "kalah and oware");
    }
}
