//! Command-line arguments shared by several subcommands.

use clap::Args;
use mancala_core::{EndRule, MAX_HOUSES, MAX_SEEDS, Rules, Variant};
use mancala_session::RuleChoice;

/// The board and rule options: `--variant`, `--houses`, `--seeds`, `--empty-capture`,
/// `--end-rule`.
#[derive(Args, Clone, Debug)]
pub struct RulesArgs {
    /// Game to play: kalah, oware (Abapa rules) or oware-simplified
    #[arg(long, default_value = "kalah", value_name = "VARIANT")]
    pub variant: Variant,

    /// Houses per side
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(1..=MAX_HOUSES as i64))]
    pub houses: u8,

    /// Seeds per house at the start
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=MAX_SEEDS as i64))]
    pub seeds: u8,

    /// Kalah: capture even when the opposite house is empty (the last seed goes to the store)
    #[arg(long)]
    pub empty_capture: bool,

    /// Kalah: when the game ends: mover-cannot-move or either-side-empty
    #[arg(long, value_name = "RULE")]
    pub end_rule: Option<EndRule>,
}

impl RulesArgs {
    /// The rules these arguments describe.
    ///
    /// # Errors
    /// When a Kalah-only option is given for another variant.
    pub fn rules(&self) -> anyhow::Result<Rules> {
        let rules = RuleChoice::new(self.variant, self.houses, self.seeds)
            .empty_capture(self.empty_capture.then_some(true))
            .end_rule(self.end_rule)
            .rules()?;
        Ok(rules)
    }
}
