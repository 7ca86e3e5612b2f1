//! Feeds arbitrary bytes, as lossy UTF-8, to both parsers: they must not
//! panic, and whatever parses must print to a line that parses back equal.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rochade_uci::{EngineMessage, GuiCommand};

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    if let Ok(cmd) = GuiCommand::parse(&line) {
        assert_eq!(GuiCommand::parse(&cmd.to_string()), Ok(cmd));
    }
    if let Ok(msg) = EngineMessage::parse(&line) {
        assert_eq!(EngineMessage::parse(&msg.to_string()), Ok(msg));
    }
});
