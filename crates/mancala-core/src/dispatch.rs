//! The one place a game value becomes its rule set's type: the hand-written rule sets
//! (`variants/`) and the description engine's (`described/`), which is why it lives
//! apart from both.

/// Calls `$body` with `$R` standing for the [`RuleSet`](crate::variants::RuleSet) of
/// `$variant`: the one place that turns a variant value into its rules type. Search kernels use it to run a
/// loop specialised for one variant (`with_rule_set!(v, R => playout::<R>(pos))`).
///
/// ```
/// use mancala_core::variants::RuleSet;
/// use mancala_core::{Variant, with_rule_set};
/// let kinds: Vec<bool> = Variant::ALL.iter().map(|&v| with_rule_set!(v, R => R::is_of(v))).collect();
/// assert_eq!(kinds, [true; 4]);
/// ```
#[macro_export]
macro_rules! with_rule_set {
    ($variant:expr, $R:ident => $body:expr) => {
        match $variant {
            $crate::Variant::Kalah => {
                type $R = $crate::variants::Kalah;
                $body
            }
            $crate::Variant::Oware => {
                type $R = $crate::variants::Oware;
                $body
            }
            $crate::Variant::OwareSimplified => {
                type $R = $crate::variants::OwareSimplified;
                $body
            }
            $crate::Variant::TogyzKumalak => {
                type $R = $crate::variants::TogyzKumalak;
                $body
            }
            $crate::Variant::Described(_) => {
                type $R = $crate::described::ByDescription;
                $body
            }
        }
    };
}
