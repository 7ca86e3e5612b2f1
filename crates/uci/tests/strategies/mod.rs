//! Proptest strategies for every value of `rochade-uci`, restricted to the
//! values the documentation says round-trip: free text has no newline and
//! no whitespace at its ends, names avoid the keyword that ends them, and
//! times are whole milliseconds.

use std::time::Duration;

use proptest::prelude::*;
use rochade_uci::{
    CheckStatus, CurrLine, EngineMessage, GoParams, GuiCommand, Id, Info, OptionDecl, OptionKind,
    PositionBase, PositionSpec, Registration, Score, ScoreBound, ScoreKind, Wdl,
};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, EnPassantMode, Position, Role, Square};

/// Any square.
fn square() -> impl Strategy<Value = Square> {
    (0u32..64).prop_map(|i| Square::new(i))
}

/// Any role.
fn role() -> impl Strategy<Value = Role> {
    prop::sample::select(Role::ALL.to_vec())
}

/// Any UCI move: normal, promotion, drop or null.
pub fn uci_move() -> impl Strategy<Value = UciMove> {
    prop_oneof![
        8 => (square(), square(), prop::option::of(role()))
            .prop_map(|(from, to, promotion)| UciMove::Normal { from, to, promotion }),
        1 => (role(), square()).prop_map(|(role, to)| UciMove::Put { role, to }),
        1 => Just(UciMove::Null),
    ]
}

fn moves() -> impl Strategy<Value = Vec<UciMove>> {
    prop::collection::vec(uci_move(), 0..6)
}

/// A FEN of a position reached by random legal moves from the start.
pub fn fen() -> impl Strategy<Value = Fen> {
    prop::collection::vec(any::<prop::sample::Index>(), 0..40).prop_map(|choices| {
        let mut pos = Chess::default();
        for choice in choices {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[choice.index(legal.len())];
            pos.play_unchecked(m);
        }
        Fen::from_position(&pos, EnPassantMode::Legal)
    })
}

/// Any whole-millisecond duration, from zero to the largest one.
pub fn millis() -> impl Strategy<Value = Duration> {
    prop_oneof![
        (0u64..10_000_000).prop_map(Duration::from_millis),
        (any::<u64>(), 0u32..1000).prop_map(|(s, ms)| Duration::new(s, ms * 1_000_000)),
    ]
}

/// One word of free text: no whitespace.
fn word() -> impl Strategy<Value = String> {
    "[A-Za-z0-9_@<>()/\\\\.:+éß-]{1,7}"
}

/// Free text with single, double or tab separators, avoiding `reserved`
/// words; empty if `allow_empty` and the draw says so.
fn text(reserved: &'static [&'static str], min_words: usize) -> impl Strategy<Value = String> {
    let word = word().prop_filter("reserved word", move |w| !reserved.contains(&w.as_str()));
    let part = (prop::sample::select(vec![" ", "  ", "\t"]), word);
    prop::collection::vec(part, min_words..5).prop_map(|parts| {
        let mut out = String::new();
        for (i, (sep, w)) in parts.into_iter().enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            out.push_str(&w);
        }
        out
    })
}

/// Any text for the rest of a line: no newline, trimmed.
fn rest_of_line() -> impl Strategy<Value = String> {
    "[^\r\n]{0,30}".prop_map(|s| s.trim().to_owned())
}

pub fn go_params() -> impl Strategy<Value = GoParams> {
    let times = (
        prop::option::of(millis()),
        prop::option::of(millis()),
        prop::option::of(millis()),
        prop::option::of(millis()),
        prop::option::of(millis()),
    );
    let rest = (
        moves(),
        any::<bool>(),
        prop::option::of(any::<u32>()),
        prop::option::of(any::<u32>()),
        prop::option::of(any::<u64>()),
        prop::option::of(any::<u32>()),
        any::<bool>(),
    );
    (times, rest).prop_map(
        |(
            (wtime, btime, winc, binc, movetime),
            (searchmoves, ponder, movestogo, depth, nodes, mate, infinite),
        )| GoParams {
            searchmoves,
            ponder,
            wtime,
            btime,
            winc,
            binc,
            movestogo,
            depth,
            nodes,
            mate,
            movetime,
            infinite,
        },
    )
}

pub fn position_spec() -> impl Strategy<Value = PositionSpec> {
    let base = prop_oneof![
        Just(PositionBase::StartPos),
        fen().prop_map(PositionBase::Fen)
    ];
    (base, moves()).prop_map(|(base, moves)| PositionSpec { base, moves })
}

pub fn registration() -> impl Strategy<Value = Registration> {
    prop_oneof![
        Just(Registration::Later),
        (text(&["code"], 1), text(&[], 1))
            .prop_map(|(name, code)| Registration::Now { name, code }),
    ]
}

pub fn setoption() -> impl Strategy<Value = GuiCommand> {
    (text(&["value"], 1), prop::option::of(rest_of_line()))
        .prop_map(|(name, value)| GuiCommand::SetOption { name, value })
}

pub fn gui_command() -> impl Strategy<Value = GuiCommand> {
    prop_oneof![
        Just(GuiCommand::Uci),
        any::<bool>().prop_map(GuiCommand::Debug),
        Just(GuiCommand::IsReady),
        setoption(),
        registration().prop_map(GuiCommand::Register),
        Just(GuiCommand::UciNewGame),
        position_spec().prop_map(GuiCommand::Position),
        go_params().prop_map(GuiCommand::Go),
        Just(GuiCommand::Stop),
        Just(GuiCommand::PonderHit),
        Just(GuiCommand::Quit),
    ]
}

pub fn score() -> impl Strategy<Value = Score> {
    let kind = prop_oneof![
        any::<i32>().prop_map(ScoreKind::Cp),
        any::<i32>().prop_map(ScoreKind::Mate)
    ];
    let bound = prop::sample::select(vec![
        ScoreBound::Exact,
        ScoreBound::Lower,
        ScoreBound::Upper,
    ]);
    (kind, bound).prop_map(|(kind, bound)| Score { kind, bound })
}

fn currline() -> impl Strategy<Value = CurrLine> {
    (prop::option::of(any::<u32>()), moves()).prop_map(|(cpu, moves)| CurrLine { cpu, moves })
}

fn wdl() -> impl Strategy<Value = Wdl> {
    any::<(u32, u32, u32)>().prop_map(|(win, draw, loss)| Wdl { win, draw, loss })
}

pub fn info() -> impl Strategy<Value = Info> {
    let search = (
        prop::option::of(any::<u32>()),
        prop::option::of(any::<u32>()),
        prop::option::of(any::<u32>()),
        prop::option::of(score()),
        prop::option::of(wdl()),
        prop::option::of(any::<u64>()),
        prop::option::of(any::<u64>()),
        prop::option::of(any::<u32>()),
        prop::option::of(any::<u64>()),
    );
    let progress = (
        prop::option::of(any::<u64>()),
        prop::option::of(any::<u32>()),
        prop::option::of(millis()),
        prop::option::of(uci_move()),
        prop::option::of(any::<u32>()),
        moves(),
        moves(),
        prop::option::of(currline()),
        prop::option::of(rest_of_line()),
    );
    (search, progress).prop_map(
        |(
            (depth, seldepth, multipv, score, wdl, nodes, nps, hashfull, tbhits),
            (sbhits, cpuload, time, currmove, currmovenumber, pv, refutation, currline, string),
        )| Info {
            depth,
            seldepth,
            multipv,
            score,
            wdl,
            nodes,
            nps,
            hashfull,
            tbhits,
            sbhits,
            cpuload,
            time,
            currmove,
            currmovenumber,
            pv,
            refutation,
            currline,
            string,
        },
    )
}

/// Combo values: may be empty, avoid `default`, `var` and `<empty>`.
fn combo_value() -> impl Strategy<Value = String> {
    text(&["default", "var", "<empty>"], 0)
}

pub fn option_kind() -> impl Strategy<Value = OptionKind> {
    prop_oneof![
        any::<bool>().prop_map(|default| OptionKind::Check { default }),
        any::<(i64, i64, i64)>().prop_map(|(default, min, max)| OptionKind::Spin {
            default,
            min,
            max
        }),
        (combo_value(), prop::collection::vec(combo_value(), 0..5))
            .prop_map(|(default, vars)| OptionKind::Combo { default, vars }),
        Just(OptionKind::Button),
        rest_of_line()
            .prop_filter("<empty> reads as empty", |s| s != "<empty>")
            .prop_map(|default| OptionKind::String { default }),
    ]
}

pub fn option_decl() -> impl Strategy<Value = OptionDecl> {
    (text(&["type"], 1), option_kind()).prop_map(|(name, kind)| OptionDecl { name, kind })
}

pub fn check_status() -> impl Strategy<Value = CheckStatus> {
    prop::sample::select(vec![
        CheckStatus::Checking,
        CheckStatus::Ok,
        CheckStatus::Error,
    ])
}

pub fn id() -> impl Strategy<Value = Id> {
    prop_oneof![
        rest_of_line().prop_map(Id::Name),
        rest_of_line().prop_map(Id::Author)
    ]
}

pub fn bestmove() -> impl Strategy<Value = EngineMessage> {
    (uci_move(), prop::option::of(uci_move()))
        .prop_map(|(best, ponder)| EngineMessage::BestMove { best, ponder })
}

pub fn engine_message() -> impl Strategy<Value = EngineMessage> {
    prop_oneof![
        id().prop_map(EngineMessage::Id),
        Just(EngineMessage::UciOk),
        Just(EngineMessage::ReadyOk),
        bestmove(),
        check_status().prop_map(EngineMessage::CopyProtection),
        check_status().prop_map(EngineMessage::Registration),
        info().prop_map(|info| EngineMessage::Info(Box::new(info))),
        option_decl().prop_map(EngineMessage::Option),
    ]
}
