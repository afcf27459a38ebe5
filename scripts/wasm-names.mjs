// The function names of a linked wasm module (its `name` section, as the
// linker wrote them: mangled, `_ZN10sensei_lab2ui…`), one a line, demangled
// as far as paths go (`sensei_lab::ui::…`): what scripts/solo.sh reads to
// tell which code a module holds.
//
// Usage: node scripts/wasm-names.mjs MODULE.wasm
import { readFileSync } from "node:fs";

const b = readFileSync(process.argv[2]);
let at = 8; // magic and version
const leb = () => {
  let v = 0, shift = 0, byte;
  do {
    byte = b[at++];
    v += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return v;
};
const text = (n) => {
  const s = b.toString("utf8", at, at + n);
  at += n;
  return s;
};
const names = [];
while (at < b.length) {
  const id = b[at++];
  const size = leb();
  const end = at + size;
  if (id === 0 && text(leb()) === "name") {
    while (at < end) {
      const sub = b[at++];
      const len = leb();
      const subEnd = at + len;
      if (sub === 1) {
        for (let i = leb(); i > 0; i--) {
          leb();
          names.push(text(leb()));
        }
      }
      at = subEnd;
    }
  }
  at = end;
}
if (!names.length) {
  console.error(`${process.argv[2]}: no function names (built without them?)`);
  process.exit(1);
}
// Legacy mangling: `_ZN` then length-prefixed segments, `..` for `::` inside generics.
const demangle = (n) => {
  const m = n.match(/^_ZN(.*)E$/);
  if (!m) return n;
  const parts = [];
  let s = m[1];
  while (s.length) {
    const d = s.match(/^(\d+)/);
    if (!d) break;
    const len = Number(d[1]);
    parts.push(s.slice(d[1].length, d[1].length + len));
    s = s.slice(d[1].length + len);
  }
  return parts.join("::").replaceAll("..", "::").replaceAll("$LT$", "<").replaceAll("$GT$", ">").replaceAll("$u20$", " ");
};
console.log(names.map(demangle).join("\n"));
