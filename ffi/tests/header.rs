//! The files shipped to C users stay in step with the crate. `include/hookwire.h` is generated
//! by cbindgen and committed (CONTRIBUTING.md rule 8): this test regenerates it in memory and fails
//! when the committed file has drifted from the crate; with `HOOKWIRE_BLESS=1` it rewrites the
//! file instead. `ffi/hookwire.pc` is written by hand and must carry the crate's version.

use std::path::{Path, PathBuf};

const BLESS: &str = "HOOKWIRE_BLESS=1 cargo test -p hookwire-ffi --test header";

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn header_path() -> PathBuf {
    crate_dir().join("..").join("include").join("hookwire.h")
}

fn generate(crate_dir: &Path) -> Vec<u8> {
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("ffi/cbindgen.toml is readable and valid");
    let bindings = cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen can generate the header from ffi/");
    let mut out = Vec::new();
    bindings.write(&mut out);
    out
}

#[test]
fn committed_header_matches_what_cbindgen_generates() {
    let fresh = generate(&crate_dir());
    let path = header_path();
    if std::env::var_os("HOOKWIRE_BLESS").is_some() {
        std::fs::write(&path, &fresh).expect("include/hookwire.h is writable");
        return;
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    if committed != fresh {
        let committed = String::from_utf8_lossy(&committed);
        let fresh = String::from_utf8_lossy(&fresh);
        let first_difference = committed
            .lines()
            .zip(fresh.lines())
            .position(|(a, b)| a != b)
            .map_or_else(|| "one file is a prefix of the other".to_string(), |i| format!("line {}", i + 1));
        panic!(
            "include/hookwire.h is out of date with ffi/src ({first_difference} differs).\n\
             Review the change, then re-bless it with:\n    {BLESS}"
        );
    }
}

#[test]
fn header_declares_exactly_the_abi() {
    let header = String::from_utf8(generate(&crate_dir())).unwrap();
    for needle in [
        "#ifndef HOOKWIRE_H",
        "#include <stdint.h>",
        "extern \"C\" {",
        "typedef struct HooksDispatcher HooksDispatcher;",
        "HooksDispatcher *hooks_dispatcher_new(const char *config_json, char **error_json);",
        "int32_t hooks_fire(const HooksDispatcher *dispatcher, const char *event_json, char **result_json);",
        "void hooks_free(char *s);",
        "void hooks_dispatcher_free(HooksDispatcher *dispatcher);",
        "const char *hooks_version(void);",
        "#define HOOKS_OK 0",
        "#define HOOKS_ERR_NULL_POINTER 1",
        "#define HOOKS_ERR_INVALID_UTF8 2",
        "#define HOOKS_ERR_INVALID_JSON 3",
        "#define HOOKS_ERR_INVALID_CONFIG 4",
        "#define HOOKS_ERR_INVALID_EVENT 5",
        "#define HOOKS_ERR_PANIC 6",
        "#define HOOKS_ERR_INTERNAL 7",
        "hooks_free and nothing else, never libc free",
        // additions of abi.md §2.8 (issue 8)
        "typedef struct HooksCancelToken HooksCancelToken;",
        "HooksCancelToken *hooks_cancel_token_new(void);",
        "void hooks_cancel_token_cancel(const HooksCancelToken *token);",
        "void hooks_cancel_token_free(HooksCancelToken *token);",
        "int32_t hooks_fire_with(const HooksDispatcher *dispatcher, const char *event_json, const HooksCancelToken *token, char **result_json);",
        "char *hooks_string_new(const char *s);",
        "typedef int32_t (*HooksFunctionHook)(void *user_data, const char *event_json, char **answer);",
        "int32_t hooks_add_function_hook(const HooksDispatcher *dispatcher, const char *options_json, HooksFunctionHook fn, void *user_data, char **result_json);",
        "typedef int32_t (*HooksHostCallback)(void *user_data, const char *request_json, char **reply_json);",
        "int32_t hooks_set_host_callback(const HooksDispatcher *dispatcher, const char *handler_type, HooksHostCallback fn, void *user_data, char **error_json);",
    ] {
        assert!(header.contains(needle), "the header lacks `{needle}`:\n{header}");
    }
}

#[test]
fn pkg_config_file_carries_the_crate_version() {
    let pc = std::fs::read_to_string(crate_dir().join("hookwire.pc")).unwrap();
    let version = pc.lines().find_map(|l| l.strip_prefix("Version:")).map(str::trim);
    assert_eq!(version, Some(env!("CARGO_PKG_VERSION")), "update Version: in ffi/hookwire.pc");
}
