//! The tag section: the tags a record knows, read into typed values and written back
//! in one order.

use mancala_core::description::Description;
use mancala_core::variants::RuleOptionInfo;
use mancala_core::{EndReason, Position, RuleOptions, Rules, RulesError, Side, Variant};

use super::Record;
use super::error::{RecordEditError, RecordErrorKind, TagProblem};
use super::result::{AGREEMENT, Ending, RESIGNATION, RecordResult, TIME_FORFEIT, UNTERMINATED};
use crate::{RuleChoice, Seat, SetupError, default_name};

/// The tags the record writes from its own fields, in the order the strict format
/// writes them (`Score` last), the rule options' tags ([`option_tag`]) after `Seeds`.
pub(crate) const KNOWN: [&str; 13] = [
    "Variant",
    "Houses",
    "Seeds",
    "Position",
    "Player1",
    "Player1Kind",
    "Player2",
    "Player2Kind",
    "Date",
    "TimeControl",
    "Result",
    "Termination",
    "Score",
];

/// Whether the record writes the tag `name` from its own fields: a tag of [`KNOWN`]
/// or a rule option's.
pub(crate) fn is_known(name: &str) -> bool {
    KNOWN.contains(&name) || RuleOptions::all().iter().any(|o| option_tag(o.key) == name)
}

/// The tag of the rule option `key`: the key in CamelCase (`end-rule`: `EndRule`).
fn option_tag(key: &str) -> String {
    key.split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// A rule option's value as its tag writes it: a switch `yes` or `no`, else the value.
fn tag_value(option: &RuleOptionInfo, value: &'static str) -> &'static str {
    match (option.is_switch(), value) {
        (true, "on") => "yes",
        (true, _) => "no",
        (false, _) => value,
    }
}

/// The value of `option` its tag `t` gives, as the option writes it.
fn option_of_tag(option: &'static RuleOptionInfo, t: &RawTag) -> Result<&'static str, Located> {
    let value = match (option.is_switch(), t.value.as_str()) {
        (true, "yes") => "on",
        (true, "no") => "off",
        (true, other) => return Err(tag_error(t, TagProblem::NotYesNo(other.to_owned()))),
        (false, other) => other,
    };
    match option.values.iter().find(|v| **v == value) {
        Some(v) => Ok(v),
        None => {
            let e = RuleOptions::default().with(option.key, value).unwrap_err();
            Err(tag_error(t, SetupError::Rules(e.into())))
        }
    }
}

/// A tag as read: name, value and line.
#[derive(Clone, Debug)]
pub(crate) struct RawTag {
    pub name: String,
    pub value: String,
    pub line: usize,
}

/// A problem located at a line.
pub(crate) type Located = (usize, RecordErrorKind);

fn tag_error(tag: &RawTag, problem: impl Into<TagProblem>) -> Located {
    let kind = RecordErrorKind::Tag {
        name: tag.name.clone(),
        problem: problem.into(),
    };
    (tag.line, kind)
}

/// Why a game ended, as its `Termination` tag says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Termination {
    /// A reason of the rules, by its name.
    Rules(&'static str),
    Resignation,
    TimeForfeit,
    Agreement,
    Unterminated,
}

/// The names of the rules' reasons.
const REASONS: [EndReason; 7] = [
    EndReason::NoSeeds(Side::South),
    EndReason::SideEmpty(Side::South),
    EndReason::Majority(Side::South),
    EndReason::HalfEach,
    EndReason::CannotFeed(Side::South),
    EndReason::Repetition,
    EndReason::FewSeedsLeft,
];

impl Termination {
    fn parse(value: &str) -> Option<Termination> {
        match value {
            RESIGNATION => Some(Termination::Resignation),
            TIME_FORFEIT => Some(Termination::TimeForfeit),
            AGREEMENT => Some(Termination::Agreement),
            UNTERMINATED => Some(Termination::Unterminated),
            other => REASONS
                .iter()
                .map(|r| r.name())
                .find(|&n| n == other)
                .map(Termination::Rules),
        }
    }
}

/// The tag section of one game, read and checked.
#[derive(Clone, Debug)]
pub(crate) struct Header {
    pub start: Position,
    pub names: [String; 2],
    pub seats: [Seat; 2],
    pub date: Option<String>,
    pub time_control: Option<String>,
    pub tags: Vec<(String, String)>,
    pub result: Option<(RecordResult, usize)>,
    pub termination: Option<(Termination, usize)>,
    pub score: Option<(String, usize)>,
}

/// Finds a known tag.
struct Tags<'a>(&'a [RawTag]);

impl<'a> Tags<'a> {
    fn get(&self, name: &str) -> Option<&'a RawTag> {
        self.0.iter().find(|t| t.name == name)
    }
}

/// Reads the tags of one game; the rules not given come from `defaults`.
pub(crate) fn read_header(raw: &[RawTag], defaults: Rules) -> Result<Header, Located> {
    for (i, tag) in raw.iter().enumerate() {
        if raw[..i].iter().any(|t| t.name == tag.name) {
            return Err(tag_error(tag, TagProblem::Duplicate));
        }
    }
    let tags = Tags(raw);
    let start = start_position(&tags, defaults)?;
    let mut names = [
        default_name(Side::South, &Seat::Human),
        default_name(Side::North, &Seat::Human),
    ];
    let mut seats = [Seat::Human, Seat::Human];
    for side in Side::BOTH {
        let n = side.number();
        if let Some(t) = tags.get(&format!("Player{n}")) {
            names[side.index()] = t.value.clone();
        }
        if let Some(t) = tags.get(&format!("Player{n}Kind")) {
            seats[side.index()] = Seat::computer(&t.value).map_err(|e| tag_error(t, e))?;
        }
    }
    let result = match tags.get("Result") {
        Some(t) => Some((t.value.parse().map_err(|e| tag_error(t, e))?, t.line)),
        None => None,
    };
    let termination = match tags.get("Termination") {
        Some(t) => {
            let parsed = Termination::parse(&t.value)
                .ok_or_else(|| tag_error(t, TagProblem::UnknownTermination(t.value.clone())))?;
            Some((parsed, t.line))
        }
        None => None,
    };
    let score = match tags.get("Score") {
        Some(t) => {
            parse_score(&t.value)
                .ok_or_else(|| tag_error(t, TagProblem::BadScore(t.value.clone())))?;
            Some((t.value.clone(), t.line))
        }
        None => None,
    };
    Ok(Header {
        start,
        names,
        seats,
        date: tags.get("Date").map(|t| t.value.clone()),
        time_control: tags.get("TimeControl").map(|t| t.value.clone()),
        tags: raw
            .iter()
            .filter(|t| !is_known(&t.name))
            .map(|t| (t.name.clone(), t.value.clone()))
            .collect(),
        result,
        termination,
        score,
    })
}

/// `a-b`, two scores.
pub(crate) fn parse_score(text: &str) -> Option<[u16; 2]> {
    let (a, b) = text.split_once('-')?;
    let number = |t: &str| {
        t.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| t.parse::<u16>().ok())
            .flatten()
    };
    Some([number(a)?, number(b)?])
}

/// The rules tags as given, each parsed.
struct RulesTags<'a> {
    variant: Option<(Variant, &'a RawTag)>,
    /// The game of a `Rules` tag: a description of a game that is not in the
    /// catalogue, which its key alone would not name.
    described: Option<(Variant, &'a RawTag)>,
    houses: Option<(u8, &'a RawTag)>,
    seeds: Option<(u8, &'a RawTag)>,
    /// The rule options' tags given: the option, its value and the tag.
    options: Vec<(&'static RuleOptionInfo, &'static str, &'a RawTag)>,
}

fn size(tag: &RawTag, err: fn(u32) -> RulesError) -> Result<u8, Located> {
    let v = &tag.value;
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        return Err(tag_error(tag, TagProblem::NotANumber(v.clone())));
    }
    let n = v.parse::<u32>().unwrap_or(u32::MAX);
    u8::try_from(n).map_err(|_| tag_error(tag, SetupError::Rules(err(n))))
}

impl<'a> RulesTags<'a> {
    fn read(tags: &Tags<'a>) -> Result<RulesTags<'a>, Located> {
        let rules_err = |t: &RawTag, e: RulesError| tag_error(t, SetupError::Rules(e));
        let described = match tags.get("Rules") {
            Some(t) => {
                let d = Description::from_json(&t.value, "the Rules tag")
                    .map_err(|e| rules_err(t, e.into()))?;
                let rules = Rules::from_description(d).map_err(|e| rules_err(t, e))?;
                Some((rules.variant(), t))
            }
            None => None,
        };
        // With a Rules tag the Variant tag is its key, which names no shipped game.
        let variant = match (tags.get("Variant"), described) {
            (Some(t), Some((v, _))) if t.value != v.name() => {
                return Err(tag_error(
                    t,
                    TagProblem::DisagreesWithRules(v.name().to_owned()),
                ));
            }
            (Some(t), Some((v, _))) => Some((v, t)),
            (Some(t), None) => Some((t.value.parse().map_err(|e| rules_err(t, e))?, t)),
            (None, _) => None,
        };
        let houses = match tags.get("Houses") {
            Some(t) => Some((size(t, RulesError::Houses)?, t)),
            None => None,
        };
        let seeds = match tags.get("Seeds") {
            Some(t) => Some((size(t, RulesError::Seeds)?, t)),
            None => None,
        };
        let mut options = Vec::new();
        for option in RuleOptions::all() {
            if let Some(t) = tags.get(&option_tag(option.key)) {
                options.push((option, option_of_tag(option, t)?, t));
            }
        }
        Ok(RulesTags {
            variant,
            described,
            houses,
            seeds,
            options,
        })
    }

    /// The rules these tags choose, the rest from `defaults` (their rule options only
    /// where the variant chosen takes them).
    fn choose(&self, defaults: Rules) -> Result<Rules, Located> {
        let variant = self
            .described
            .or(self.variant)
            .map_or(defaults.variant(), |(v, _)| v);
        // The defaults' options hold for the options the variant takes and the tags
        // leave out.
        let mut choice = RuleChoice::new(
            variant,
            self.houses.map_or(defaults.houses() as u8, |(h, _)| h),
            self.seeds.map_or(defaults.seeds() as u8, |(s, _)| s),
        );
        for option in variant.info().options {
            if let Some(value) = defaults.options().value(option.key) {
                choice = choice.option(option.key, value);
            }
        }
        for (option, value, _) in &self.options {
            choice = choice.option(option.key, value);
        }
        choice.rules().map_err(|e| {
            let at = match &e {
                SetupError::OptionNotTaken { options, .. } => self
                    .options
                    .iter()
                    .find(|(o, _, _)| options.first().is_some_and(|k| k == o.key))
                    .map(|(_, _, t)| *t),
                SetupError::Rules(RulesError::Houses(_)) => self.houses.map(|(_, t)| t),
                SetupError::Rules(_) => self.seeds.map(|(_, t)| t),
            };
            let (line, name) = at.map_or((1, "Variant".to_owned()), |t| (t.line, t.name.clone()));
            let kind = RecordErrorKind::Tag {
                name,
                problem: TagProblem::Rules(e),
            };
            (line, kind)
        })
    }

    /// Checks every rules tag given against the rules of a `Position` tag.
    fn agree_with(&self, rules: Rules) -> Result<(), Located> {
        let differs =
            |t: &RawTag, said: String| tag_error(t, TagProblem::DisagreesWithPosition(said));
        let said = self.described.or(self.variant);
        if let Some((_, t)) = said.filter(|&(v, _)| v != rules.variant()) {
            return Err(differs(t, rules.variant().to_string()));
        }
        if let Some((_, t)) = self
            .houses
            .filter(|&(h, _)| usize::from(h) != rules.houses())
        {
            return Err(differs(t, rules.houses().to_string()));
        }
        if let Some((_, t)) = self.seeds.filter(|&(s, _)| u16::from(s) != rules.seeds()) {
            return Err(differs(t, rules.seeds().to_string()));
        }
        for &(option, value, t) in &self.options {
            if !rules.variant().info().takes_option(option.key) {
                let e = SetupError::OptionNotTaken {
                    variant: rules.variant(),
                    options: vec![option.key.to_owned()],
                };
                return Err(tag_error(t, e));
            }
            let actual = rules
                .options()
                .value(option.key)
                .unwrap_or(option.values[0]);
            if value != actual {
                return Err(differs(t, tag_value(option, actual).to_owned()));
            }
        }
        Ok(())
    }
}

/// The start position: the `Position` tag's, which the rules tags must agree with,
/// or the rules' start.
fn start_position(tags: &Tags<'_>, defaults: Rules) -> Result<Position, Located> {
    let rules_tags = RulesTags::read(tags)?;
    match tags.get("Position") {
        Some(t) => {
            let start = Position::from_notation(&t.value).map_err(|e| tag_error(t, e))?;
            rules_tags.agree_with(start.rules())?;
            Ok(start)
        }
        None => Ok(Position::new(rules_tags.choose(defaults)?)),
    }
}

/// `text` as a quoted tag value: `"` and `\` escaped.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// The strict tag section of `record`, one tag a line.
pub(crate) fn write_header(record: &Record, out: &mut String) {
    let rules = record.rules();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} {}]\n", quoted(value)));
    };
    tag("Variant", rules.variant().name());
    if !rules.variant().is_catalogued() {
        // A game of a player's own: its key alone would not name it.
        tag("Rules", &rules.variant().description().to_json());
    }
    tag("Houses", &rules.houses().to_string());
    tag("Seeds", &rules.seeds().to_string());
    for option in rules.variant().info().options {
        let value = rules
            .options()
            .value(option.key)
            .unwrap_or(option.values[0]);
        tag(&option_tag(option.key), tag_value(option, value));
    }
    if *record.start() != Position::new(rules) {
        tag("Position", &record.start().to_notation());
    }
    for side in Side::BOTH {
        let n = side.number();
        tag(&format!("Player{n}"), &record.names()[side.index()]);
        tag(
            &format!("Player{n}Kind"),
            &record.seats()[side.index()].to_string(),
        );
    }
    if let Some(date) = record.date() {
        tag("Date", date);
    }
    if let Some(tc) = record.time_control() {
        tag("TimeControl", tc);
    }
    for (name, value) in record.tags() {
        tag(name, value);
    }
    let ending = record.ending();
    tag("Result", ending.result().token());
    tag("Termination", ending.termination());
    if let Ending::Rules(end) = ending {
        let [a, b] = end.outcome.scores;
        tag("Score", &format!("{a}-{b}"));
    }
}

/// Checks the name of a tag a caller adds.
pub(crate) fn check_extra_name(name: &str) -> Result<(), RecordEditError> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(RecordEditError::BadTagName(name.to_owned()));
    }
    if is_known(name) {
        return Err(RecordEditError::ReservedTag(name.to_owned()));
    }
    Ok(())
}
