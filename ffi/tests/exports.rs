//! "Every C export runs inside the panic and NULL boundary" holds by construction, and this
//! test keeps it so: it parses every file of `ffi/src` and requires each `#[no_mangle]`
//! function to be an `extern "C" fn` whose body is exactly one `export!(...)` call, the
//! boundary macro of `ffi/src/boundary.rs`, with nothing before or after it. The exports it
//! finds must be the functions the generated header declares, so none can hide from it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use syn::{Attribute, Expr, Item, Stmt};

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// `#[no_mangle]` or `#[unsafe(no_mangle)]`.
fn is_no_mangle(attr: &Attribute) -> bool {
    let path = attr.path();
    if path.is_ident("no_mangle") {
        return true;
    }
    path.is_ident("unsafe") && attr.parse_args::<syn::Path>().is_ok_and(|inner| inner.is_ident("no_mangle"))
}

/// The macro a single-statement body calls, if that is all it does.
fn sole_macro_call(block: &syn::Block) -> Option<String> {
    let [stmt] = block.stmts.as_slice() else { return None };
    let mac = match stmt {
        Stmt::Expr(Expr::Macro(m), None) => &m.mac,
        Stmt::Macro(m) if m.semi_token.is_none() => &m.mac,
        _ => return None,
    };
    Some(mac.path.segments.iter().map(|s| s.ident.to_string()).collect::<Vec<_>>().join("::"))
}

/// Every item of `items`, nested modules included, as (file, item).
fn walk<'a>(file: &'a str, items: &'a [Item], out: &mut Vec<(&'a str, &'a Item)>) {
    for item in items {
        if let Item::Mod(m) = item
            && let Some((_, inner)) = &m.content
        {
            walk(file, inner, out);
        }
        out.push((file, item));
    }
}

fn sources() -> Vec<(String, syn::File)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(src_dir())
        .expect("ffi/src is readable")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort();
    assert!(files.len() >= 2, "ffi/src holds lib.rs and boundary.rs at least: {files:?}");
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("a source file is readable");
            let name = p.file_name().expect("a file name").to_string_lossy().into_owned();
            let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{name} does not parse: {e}"));
            (name, parsed)
        })
        .collect()
}

#[test]
fn every_export_is_one_call_of_the_boundary_macro() {
    let sources = sources();
    let mut items = Vec::new();
    for (name, file) in &sources {
        walk(name, &file.items, &mut items);
    }
    let mut exports = BTreeSet::new();
    let mut wrong = Vec::new();
    for (file, item) in items {
        let Item::Fn(f) = item else {
            if let Item::ForeignMod(_) | Item::Static(_) = item {
                // Exported statics or imported C functions would need the same scrutiny.
                let exported = match item {
                    Item::Static(s) => s.attrs.iter().any(is_no_mangle),
                    _ => false,
                };
                assert!(!exported, "{file}: an exported static is not covered by the boundary");
            }
            continue;
        };
        if !f.attrs.iter().any(is_no_mangle) {
            continue;
        }
        let name = f.sig.ident.to_string();
        let is_c = f.sig.abi.as_ref().and_then(|a| a.name.as_ref()).is_some_and(|n| n.value() == "C");
        if !is_c {
            wrong.push(format!("{file}: {name} is exported but not extern \"C\""));
        }
        match sole_macro_call(&f.block) {
            Some(path) if path == "export" => {}
            Some(other) => wrong.push(format!("{file}: the body of {name} calls {other}!, not export!")),
            None => wrong.push(format!("{file}: the body of {name} is not one export!(...) call")),
        }
        exports.insert(name);
    }
    assert!(wrong.is_empty(), "exports outside the boundary:\n{}", wrong.join("\n"));

    // The header lists every function the library exports: the scan above must have seen the
    // same set, or an export escaped it.
    let header = std::fs::read_to_string(src_dir().join("../../include/hookwire.h")).expect("the header");
    let declared: BTreeSet<String> = header
        .lines()
        .filter(|l| {
            !l.starts_with("//") && !l.starts_with("typedef") && l.contains("hooks_") && l.contains('(')
        })
        .filter_map(|l| {
            let at = l.find("hooks_")?;
            let end = l[at..].find('(')?;
            Some(l[at..at + end].to_string())
        })
        .collect();
    assert_eq!(exports, declared, "the exports found in ffi/src and the functions of include/hookwire.h");
    assert!(exports.len() >= 14, "{exports:?}");
}

#[test]
fn the_check_refuses_a_body_that_runs_code_outside_the_macro() {
    let bad: syn::ItemFn = syn::parse_str(
        r#"#[unsafe(no_mangle)] pub unsafe extern "C" fn hooks_x(p: *const u8) -> i32 {
            if p.is_null() { return 1; }
            export!(or(0) => { Ok(0) })
        }"#,
    )
    .unwrap();
    assert!(bad.attrs.iter().any(is_no_mangle));
    assert_eq!(sole_macro_call(&bad.block), None);
    let good: syn::ItemFn =
        syn::parse_str(r#"#[no_mangle] pub extern "C" fn hooks_y() -> i32 { export!(or(0) => { Ok(0) }) }"#)
            .unwrap();
    assert_eq!(sole_macro_call(&good.block).as_deref(), Some("export"));
    let other: syn::ItemFn =
        syn::parse_str(r#"#[no_mangle] pub extern "C" fn hooks_z() -> i32 { guard!(0) }"#).unwrap();
    assert_eq!(sole_macro_call(&other.block).as_deref(), Some("guard"));
}
