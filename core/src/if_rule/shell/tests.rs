use super::*;

/// Each simple command's words as the reader decoded them (`?` for a word only the shell
/// knows), or why it stopped.
fn words(text: &str) -> Result<Vec<Vec<String>>, String> {
    let mut out = Vec::new();
    let reading = read(text, 0, &mut |cmd, _| {
        out.push(cmd.words.iter().map(|w| w.value.as_deref().unwrap_or("?").to_string()).collect());
        Flow::Continue
    });
    match reading {
        Reading::Undecided(why) => Err(why),
        _ => Ok(out),
    }
}

fn ok(text: &str) -> Vec<Vec<String>> {
    words(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn v(items: &[&[&str]]) -> Vec<Vec<String>> {
    items.iter().map(|c| c.iter().map(|w| w.to_string()).collect()).collect()
}

#[test]
fn quotes_escapes_and_continuations_are_removed() {
    assert_eq!(ok(r#""r"m 'a b' c\ d "e\"f" g\\h"#), v(&[&["rm", "a b", "c d", "e\"f", "g\\h"]]));
    assert_eq!(ok("r\\\nm x"), v(&[&["rm", "x"]]));
    assert_eq!(ok("rm\t-rf\tx"), v(&[&["rm", "-rf", "x"]]));
    assert_eq!(ok("echo \"a\\b\""), v(&[&["echo", "a\\b"]]));
}

/// Bash removes line continuations before it reads tokens, so they do not hide a reserved
/// word (`!\<newline>`, `functio\<newline>n`), an assignment's name, or `time`'s `-p`.
#[test]
fn continuations_inside_reserved_words_and_assignments_are_removed_first() {
    assert_eq!(ok("!\\\n rm x"), v(&[&["rm", "x"]]));
    assert_eq!(ok("A\\\n=1 rm x"), v(&[&["rm", "x"]]));
    assert_eq!(ok("time -\\\np rm x"), v(&[&["rm", "x"]]));
    for text in ["coproc\\\n rm x", "functio\\\nn f { rm x; }", "i\\\nf true; then rm x; fi", "{\\\n rm x; }"]
    {
        assert!(words(text).is_err(), "{text:?}: {:?}", words(text));
    }
}

#[test]
fn redirections_anywhere_are_not_words() {
    assert_eq!(ok(">/dev/null rm -rf x 2>&1 <in"), v(&[&["rm", "-rf", "x"]]));
    assert_eq!(ok("2>/dev/null A=1 {fd}>x rm x"), v(&[&["rm", "x"]]));
    assert_eq!(ok("echo a2>x"), v(&[&["echo", "a2"]]));
    assert_eq!(ok("2\\\n>x rm"), v(&[&["rm"]]));
    assert_eq!(ok("&>>log cmd"), v(&[&["cmd"]]));
}

#[test]
fn substitutions_and_heredoc_bodies_are_read_as_commands() {
    assert_eq!(ok("echo $(rm x) `ls y`"), v(&[&["rm", "x"], &["ls", "y"], &["echo", "?", "?"]]));
    assert_eq!(ok("cat <(git a) >(git b)"), v(&[&["git", "a"], &["git", "b"], &["cat", "?", "?"]]));
    assert_eq!(ok("cat <<E\nhi $(rm z)\nE\nls"), v(&[&["cat"], &["rm", "z"], &["ls"]]));
    assert_eq!(ok("cat <<'E'\n$(rm z)\nE\nls"), v(&[&["cat"], &["ls"]]));
    assert_eq!(ok("cat <<-E\n\t$(rm z)\n\tE\n"), v(&[&["cat"], &["rm", "z"]]));
    assert_eq!(ok("echo \"`echo \\\"x\\\"`\""), v(&[&["echo", "x"], &["echo", "?"]]));
}

#[test]
fn operators_separate_commands_and_comments_end_lines() {
    assert_eq!(
        ok("a && b || c | d |& e; f & g\nh # i; j\n#k\nl"),
        v(&[&["a"], &["b"], &["c"], &["d"], &["e"], &["f"], &["g"], &["h"], &["l"]])
    );
    assert_eq!(ok("echo a#b"), v(&[&["echo", "a#b"]]));
    assert_eq!(ok("! a | b"), v(&[&["a"], &["b"]]));
    assert_eq!(ok("time -p a"), v(&[&["a"]]));
}

#[test]
fn expansions_make_a_word_known_only_to_the_shell() {
    for word in
        ["$x", "${x}", "${#x}", "$1", "$@", "*.rs", "a?", "[ab]", "{a,b}", "{1..3}", "~/x", "$'x'", "$\"x\""]
    {
        assert_eq!(ok(&format!("echo {word}")), v(&[&["echo", "?"]]), "{word}");
    }
    for word in ["[", "{}", "a]", "{x}", "$", "a$", "x~"] {
        assert_eq!(ok(&format!("echo {word}")), v(&[&["echo", word]]), "{word}");
    }
}

#[test]
fn grammar_outside_the_subset_stops_the_reading() {
    for text in [
        "if a; then b; fi",
        "case x in x) a;; esac",
        "while a; do b; done",
        "for i in a; do b; done",
        "{ a; }",
        "(a)",
        "f() { a; }",
        "function f { a; }",
        "[[ a ]]",
        "coproc a",
        "a=(1 2)",
        "a[1]=x",
        "echo $((1+1))",
        "echo $[1]",
        "echo ${x:-y}",
        "echo ${!x}",
        "echo +(a)",
        "a \u{2}",
        "a \u{1}",
        "a &\\\n& b",
        "a $\\\n(b)",
        "cat <<E\nno end",
        "echo 'x",
        "echo \"x",
        "a )",
        "a &&",
        "| a",
    ] {
        assert!(words(text).is_err(), "{text:?}: {:?}", words(text));
    }
}

#[test]
fn nesting_is_bounded() {
    let nest = |n: usize| "echo $(".repeat(n) + "x" + &")".repeat(n);
    assert!(words(&nest(MAX_NESTING)).is_ok());
    assert!(words(&nest(MAX_NESTING + 1)).is_err());
    let ticks = |n: usize| {
        // Each level of backticks inside backticks doubles its escapes.
        let mut s = "x".to_string();
        for _ in 0..n {
            s = format!("echo `{}`", s.replace('\\', "\\\\").replace('`', "\\`"));
        }
        s
    };
    assert!(words(&ticks(8)).is_ok());
    assert!(read(&"x".repeat(10), MAX_NESTING + 1, &mut |_, _| Flow::Continue) != Reading::Read);
}

#[test]
fn the_visitor_can_stop_the_reading() {
    let mut seen = 0;
    let r = read("a; b; c", 0, &mut |_, _| {
        seen += 1;
        if seen == 2 { Flow::Stop } else { Flow::Continue }
    });
    assert_eq!((r, seen), (Reading::Stopped, 2));
}
