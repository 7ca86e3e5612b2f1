//! Round trips: for every generated value `x`, `parse(x.to_string()) == x`,
//! and the printed line reads back with nothing skipped.

mod strategies;

use proptest::prelude::*;
use rochade_uci::{EngineMessage, GuiCommand};
use strategies::*;

fn gui_round_trip(cmd: GuiCommand) -> Result<(), TestCaseError> {
    let line = cmd.to_string();
    let parsed = GuiCommand::parse_with_skipped(&line);
    prop_assert!(parsed.is_ok(), "{line:?} -> {parsed:?}");
    if let Ok(parsed) = parsed {
        prop_assert!(parsed.skipped.is_empty(), "{line:?}");
        prop_assert_eq!(parsed.value, cmd, "{:?}", line);
    }
    Ok(())
}

fn engine_round_trip(msg: EngineMessage) -> Result<(), TestCaseError> {
    let line = msg.to_string();
    let parsed = EngineMessage::parse_with_skipped(&line);
    prop_assert!(parsed.is_ok(), "{line:?} -> {parsed:?}");
    if let Ok(parsed) = parsed {
        prop_assert!(parsed.skipped.is_empty(), "{line:?}");
        prop_assert_eq!(parsed.value, msg, "{:?}", line);
    }
    Ok(())
}

#[test]
fn unit_gui_commands() {
    for cmd in [
        GuiCommand::Uci,
        GuiCommand::Debug(true),
        GuiCommand::Debug(false),
        GuiCommand::IsReady,
        GuiCommand::UciNewGame,
        GuiCommand::Stop,
        GuiCommand::PonderHit,
        GuiCommand::Quit,
    ] {
        assert_eq!(GuiCommand::parse(&cmd.to_string()), Ok(cmd));
    }
}

#[test]
fn unit_engine_messages() {
    for msg in [EngineMessage::UciOk, EngineMessage::ReadyOk] {
        assert_eq!(EngineMessage::parse(&msg.to_string()), Ok(msg));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn roundtrip_setoption(cmd in setoption()) {
        gui_round_trip(cmd)?;
    }

    #[test]
    fn roundtrip_register(r in registration()) {
        gui_round_trip(GuiCommand::Register(r))?;
    }

    #[test]
    fn roundtrip_position(spec in position_spec()) {
        gui_round_trip(GuiCommand::Position(spec))?;
    }

    #[test]
    fn roundtrip_go(params in go_params()) {
        gui_round_trip(GuiCommand::Go(params))?;
    }

    #[test]
    fn roundtrip_debug(on in any::<bool>()) {
        gui_round_trip(GuiCommand::Debug(on))?;
    }

    #[test]
    fn roundtrip_any_gui_command(cmd in gui_command()) {
        gui_round_trip(cmd)?;
    }

    #[test]
    fn roundtrip_id(id in id()) {
        engine_round_trip(EngineMessage::Id(id))?;
    }

    #[test]
    fn roundtrip_bestmove(msg in bestmove()) {
        engine_round_trip(msg)?;
    }

    #[test]
    fn roundtrip_copyprotection(status in check_status()) {
        engine_round_trip(EngineMessage::CopyProtection(status))?;
    }

    #[test]
    fn roundtrip_registration_status(status in check_status()) {
        engine_round_trip(EngineMessage::Registration(status))?;
    }

    #[test]
    fn roundtrip_info(info in info()) {
        engine_round_trip(EngineMessage::Info(Box::new(info)))?;
    }

    #[test]
    fn roundtrip_option(decl in option_decl()) {
        engine_round_trip(EngineMessage::Option(decl))?;
    }

    #[test]
    fn roundtrip_any_engine_message(msg in engine_message()) {
        engine_round_trip(msg)?;
    }

    #[test]
    fn roundtrip_score_prints_like_info(score in score()) {
        let line = format!("info score {score}");
        let parsed = EngineMessage::parse(&line);
        prop_assert!(matches!(&parsed, Ok(EngineMessage::Info(i)) if i.score == Some(score)), "{:?}", parsed);
    }

    #[test]
    fn roundtrip_moves_survive_in_pv(m in uci_move()) {
        let line = format!("info pv {m}");
        let parsed = EngineMessage::parse(&line);
        prop_assert!(matches!(&parsed, Ok(EngineMessage::Info(i)) if i.pv == [m]), "{:?}", parsed);
    }
}
