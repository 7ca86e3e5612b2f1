//! Rebuilds the crate when the page bundle changes, so that the binary
//! embeds the current `web/dist`.

fn main() {
    println!("cargo:rerun-if-changed=../../web/dist");
}
