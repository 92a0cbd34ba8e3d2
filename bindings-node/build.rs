//! Link settings for a Node addon (undefined napi symbols resolved by the host at load time).

fn main() {
    napi_build::setup();
}
