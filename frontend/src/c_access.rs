//! The extent of a C access or assignment target on one source line, from the column clang's
//! debug information gives (`crate::span_at`).
//!
//! clang records a load at the first character of its expression (`A` of `A[i + 1]`) and a
//! store at the assignment operator (`=` of `A[i] = v`, `+=`, the `++` of `A[i]++`). A race
//! report underlines the two accesses, so both are widened to the access expression: a name
//! with its selectors (`[...]`, `.f`, `->f`), with a leading `*` for a dereference. This is a
//! lexical scan of one line, not a C parser: when the text around the column is not of that
//! shape, the caller keeps its whole-statement span.

/// Whether `c` can be part of a C identifier.
fn ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The length of the assignment operator at `at` (`=` but not `==`; `op=`; `++`, `--`).
fn assignment_op(line: &[u8], at: usize) -> Option<usize> {
    let rest = &line[at.min(line.len())..];
    const OPS: [&[u8]; 12] = [b"<<=", b">>=", b"+=", b"-=", b"*=", b"/=", b"%=", b"&=", b"|=", b"^=", b"++", b"--"];
    if let Some(op) = OPS.iter().find(|op| rest.starts_with(op)) {
        return Some(op.len());
    }
    let before = at.checked_sub(1).map(|i| line[i]);
    let comparison = matches!(before, Some(b'=' | b'!' | b'<' | b'>'));
    (rest.first() == Some(&b'=') && rest.get(1) != Some(&b'=') && !comparison).then_some(1)
}

/// The target written by the assignment whose operator is at `at`: the access expression that
/// ends just before it (spaces skipped).
pub fn target_before(line: &[u8], at: usize) -> Option<(usize, usize)> {
    assignment_op(line, at)?;
    let mut end = at;
    while end > 0 && line[end - 1] == b' ' {
        end -= 1;
    }
    let start = access_start(line, end)?;
    Some((start, end))
}

/// Where the access expression that ends at `end` starts: back over balanced brackets,
/// identifiers, `.` and `->`, then a leading `*`.
fn access_start(line: &[u8], end: usize) -> Option<usize> {
    let mut i = end;
    loop {
        match i.checked_sub(1).map(|j| line[j]) {
            Some(b']' | b')') => i = matching(line, i - 1)?,
            Some(c) if ident(c) || c == b'.' => i -= 1,
            Some(b'>') if i >= 2 && line[i - 2] == b'-' => i -= 2,
            _ => break,
        }
    }
    while i > 0 && line[i - 1] == b'*' {
        i -= 1;
    }
    (i < end && (ident(line[i]) || line[i] == b'*' || line[i] == b'(')).then_some(i)
}

/// The bracket matching the one at `at`, searching towards the line's end from an opening
/// bracket and towards its start from a closing one (`[` and `(` are not told apart).
fn matching(line: &[u8], at: usize) -> Option<usize> {
    let forward = matches!(line[at], b'[' | b'(');
    let (opens, closes): (&[u8], &[u8]) = if forward { (b"[(", b"])") } else { (b"])", b"[(") };
    let order: Box<dyn Iterator<Item = usize>> =
        if forward { Box::new(at..line.len()) } else { Box::new((0..=at).rev()) };
    let mut depth = 0usize;
    for j in order {
        if opens.contains(&line[j]) {
            depth += 1;
        } else if closes.contains(&line[j]) {
            depth -= 1;
            if depth == 0 {
                return Some(j);
            }
        }
    }
    None
}

/// The access expression that starts at `at`: a name followed by at least one selector
/// (`[...]`, `.f`, `->f`). A name followed by `(` is a call, and a bare name is not an
/// access of memory: neither is widened.
pub fn access_at(line: &[u8], at: usize) -> Option<(usize, usize)> {
    let mut i = at;
    while i < line.len() && ident(line[i]) {
        i += 1;
    }
    if i == at {
        return None;
    }
    let name_end = i;
    loop {
        match line.get(i) {
            Some(b'[') => i = matching(line, i)? + 1,
            Some(b'.') if line.get(i + 1).is_some_and(|&c| ident(c)) => i = name_after(line, i + 1),
            Some(b'-') if line.get(i + 1) == Some(&b'>') => i = name_after(line, i + 2),
            _ => break,
        }
    }
    (i > name_end).then_some((at, i))
}

/// The end of the identifier starting at `i`.
fn name_after(line: &[u8], mut i: usize) -> usize {
    while i < line.len() && ident(line[i]) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(line: &str, r: Option<(usize, usize)>) -> Option<&str> {
        r.map(|(a, b)| &line[a..b])
    }

    #[test]
    fn a_store_underlines_its_target() {
        let l = "  tmp[tid] += tmp[tid + s];";
        assert_eq!(text(l, target_before(l.as_bytes(), 11)), Some("tmp[tid]"));
        let l = "  *p = 1;";
        assert_eq!(text(l, target_before(l.as_bytes(), 5)), Some("*p"));
        let l = "  s->a[f(i)].b = 1;";
        assert_eq!(text(l, target_before(l.as_bytes(), 15)), Some("s->a[f(i)].b"));
        let l = "  A[i]++;";
        assert_eq!(text(l, target_before(l.as_bytes(), 6)), Some("A[i]"));
    }

    #[test]
    fn a_comparison_or_a_load_is_not_an_assignment() {
        let l = "  if (x == A[i]) {";
        assert_eq!(target_before(l.as_bytes(), 8), None);
        assert_eq!(target_before(l.as_bytes(), 9), None);
        let l = "  y = A[i];";
        assert_eq!(target_before(l.as_bytes(), 6), None);
    }

    #[test]
    fn a_load_underlines_the_access() {
        let l = "  y = A[i + B[j]] + 1;";
        assert_eq!(text(l, access_at(l.as_bytes(), 6)), Some("A[i + B[j]]"));
        let l = "  y = s.f->g;";
        assert_eq!(text(l, access_at(l.as_bytes(), 6)), Some("s.f->g"));
        // A call or a bare name is left to the caller.
        let l = "  barrier(CLK_LOCAL_MEM_FENCE);";
        assert_eq!(access_at(l.as_bytes(), 2), None);
        let l = "  y = x;";
        assert_eq!(access_at(l.as_bytes(), 6), None);
        // Unbalanced brackets: no span rather than a wrong one.
        let l = "  y = A[i";
        assert_eq!(access_at(l.as_bytes(), 6), None);
    }
}
