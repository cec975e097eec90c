"""The shell blocks of one section of a Markdown document, as a script that runs them in order
(tests/tour.sh and tests/guides.sh run the README's tour and the ATS guides' walks with it).

Usage: python3 tests/blocks.py FILE SECTION MIN_BLOCKS NAME=VALUE...

The first block's lines `NAME=...` (optionally followed by a comment) for each NAME given get
VALUE; nothing else is changed. curl fails on any answer that is not 2xx (--fail-with-body) unless
its line announces the error (`# answers 4xx ...`). Each block is preceded by an `echo` of
`--- <file> block <n>`.
"""
import re
import sys

path, section, min_blocks, *pairs = sys.argv[1:]
values = dict(p.split("=", 1) for p in pairs)
text = open(path).read()
part = text.split(f"## {section}", 1)[1].split("\n## ", 1)[0]
blocks = re.findall(r"```sh\n(.*?)```", part, re.S)
assert len(blocks) >= int(min_blocks), f"only {len(blocks)} shell blocks in {path}'s {section!r}"
placeholder = re.compile(r"^(" + "|".join(map(re.escape, values)) + r")=\S+(\s+#.*)?$")
out = ["set -euo pipefail", 'curl() { command curl --fail-with-body "$@"; }']
name = path.rsplit("/", 1)[-1]
for i, block in enumerate(blocks):
    out.append(f"echo; echo '--- {name} block {i + 1}'")
    for line in block.splitlines():
        m = placeholder.match(line)
        if i == 0 and m:
            line = f"{m.group(1)}={values[m.group(1)]}"
        # An announced error answer may fail; any other does not.
        line = re.sub(r"^(.*\S)\s+(# answers [45]\d\d.*)$", r"\1 || true  \2", line)
        out.append(line)
print("\n".join(out))
