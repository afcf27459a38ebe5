// Writes a SCORM 1.2 package of each lesson from a release build: one zip
// an instructor uploads to an LMS (Moodle, Canvas, Blackboard).
//
// Usage: node scripts/scorm.mjs DIST [--class K] [--mastery N|none]
//          [--solutions always|checked|never] [--out FILE.zip]
//   (default: DIST/scorm/<lesson>.zip, the lesson's numbers, mastery 80 %,
//   worked solutions after a check, as on the site; with a class, a mastery
//   score or other solutions, DIST/scorm/<lesson>-clase-K-dominio-N.zip, with
//   -soluciones-al-comprobar (a solution opens only once every part of its
//   exercise has an answer checked) or -sin-soluciones (none opens).
//   scripts/finish.mjs writes the default one into every release build, and
//   the two others, which «Para docentes» offers.)
//
// Whatever the setting, a part right only after its solution was opened, or
// a task right after its answer was shown, adds nothing to the score
// (src/exercise/scorm.rs).
//
// An LMS serves a package under a prefix of its own (Moodle:
// /pluginfile.php/…/content/1/), with no fallback to index.html, and reloads
// the launch page. So the package's page:
// - is the shell of the instructors' build (the one with the SCORM runtime,
//   `--features instructors`, which the learner's build leaves out; its
//   «Para docentes» page in DIST has it), with relative asset paths (the lab
//   reads its routes from the page, not from the build);
// - says it is a package (`<meta name="sensei-lab-package" content="scorm"
//   data-lesson data-class data-mastery data-solutions>`): the lab then keeps its routes in
//   the fragment (index.html#/lecciones/…), finds the LMS's API, and keeps
//   the learner's progress there (src/ui/lms.rs);
// - registers no service worker and names no web manifest;
// - carries the lesson prerendered as the package shows it (`sensei-lab
//   scorm-page`: its class's variants, its solutions' rule, its links in the
//   fragment), read before the lab's code arrives, which then wakes each piece
//   as on the site (an LMS may serve the wasm uncompressed: 1.2 MB);
// - keeps a Content-Security-Policy, with the loader's new hash.
// imsmanifest.xml comes from `sensei-lab scorm-manifest` (src/exercise/scorm.rs),
// listing every file. The zip is deflated with a fixed date: the same build
// gives the same bytes.
import { readFileSync, writeFileSync, mkdirSync, rmSync, copyFileSync, readdirSync, statSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { deflateRawSync, crc32 } from 'node:zlib';
import { buildOf } from './sizes.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const dist = args[0];
const flag = (name) => { const i = args.indexOf(name); return i > 0 ? args[i + 1] : undefined; };
if (!dist) { console.error('usage: node scripts/scorm.mjs DIST [--class K] [--mastery N|none] [--solutions always|checked|never] [--out FILE.zip]'); process.exit(2); }
const klass = flag('--class') ?? '0';
const mastery = flag('--mastery') ?? '80';
const solutions = flag('--solutions') ?? 'always';
// The package's name says its solutions (in Spanish, as the instructor reads it).
export const SOLUTIONS = { always: '', checked: '-soluciones-al-comprobar', never: '-sin-soluciones' };
if (!Object.hasOwn(SOLUTIONS, solutions)) { console.error(`--solutions: always, checked or never; not «${solutions}»`); process.exit(2); }
if (!/^\d{1,6}$/.test(klass) || Number(klass) > 999999) { console.error(`--class: a variant from 0 to 999999, not «${klass}»`); process.exit(2); }
if (mastery !== 'none' && !(/^\d{1,3}$/.test(mastery) && Number(mastery) <= 100)) { console.error(`--mastery: a percentage from 0 to 100, or none; not «${mastery}»`); process.exit(2); }

const cli = (...a) => execFileSync('cargo', ['run', '--quiet', '--locked', '--bin', 'sensei-lab', '--', ...a],
  { cwd: join(here, '..'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
const lessons = JSON.parse(cli('lessons', '--json'));

const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The package's page, from the instructors' build's shell (`dist/docentes/<lesson>/index.html`). */
function page(lesson) {
  const slug = lesson.slug;
  let html = readFileSync(join(dist, 'docentes', slug, 'index.html'), 'utf8');
  html = html.replace(/<title>[^<]*<\/title>/, `<title>${escape(lesson.title)} · Sensei Lab</title>`);
  // The shell only: the prerendered page inside #app goes (the lab renders its route).
  html = html.replace(/<div id="app"[^>]*>[\s\S]*<\/div>\s*(?=<\/body>)/, '<div id="app"></div>\n');
  if (!html.includes('<div id="app"></div>')) throw new Error(`docentes/${slug}/index.html: no <div id="app"> before </body>`);
  // The build's own path (`/`, or `/cursos/lab/` for a sub-path build): its assets are under it.
  const base = html.match(/<base href="([^"]*)"/)?.[1] ?? '/';
  if (!base.startsWith('/') || !base.endsWith('/')) throw new Error(`index.html: a <base href> «${base}» that is not a path`);
  // No service worker, no web app.
  html = html.replace(/\s*<script src="sensei-offline\.js"[^>]*><\/script>/g, '')
    .replace(/\s*<link rel="(manifest|apple-touch-icon)"[^>]*>/g, '')
    .replace(/\s*<base href="[^"]*"\s*\/?>/, '');
  // Asset paths relative to the page, wherever the LMS serves it.
  const esc = base.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  html = html.replace(new RegExp(`(href|src)="${esc}(?!/)`, 'g'), '$1="./')
    .replace(new RegExp(`'${esc}(sensei-lab-[0-9a-f]+(_bg\\.wasm|\\.js))'`, 'g'), "'./$1'");
  const meta = `<meta name="sensei-lab-package" content="scorm" data-lesson="${slug}" data-class="${klass}"${mastery === 'none' ? '' : ` data-mastery="${mastery}"`} data-solutions="${solutions}" />`;
  html = html.replace(/(<meta charset="utf-8"\s*\/?>)/, `$1\n  ${meta}`);
  // The loader's text changed (its paths): the policy's hash follows.
  const loader = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)];
  if (loader.length !== 1) throw new Error(`index.html: expected one inline script, found ${loader.length}`);
  const hash = createHash('sha256').update(loader[0][1], 'utf8').digest('base64');
  html = html.replace(/'sha256-[A-Za-z0-9+/=]+'/, `'sha256-${hash}'`);
  if (!html.includes(hash)) throw new Error('index.html: no Content-Security-Policy to update');
  return html;
}

/** Every file under `dir`, as paths with `/`. */
function walk(dir, root = dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path, root) : [relative(root, path).split('\\').join('/')];
  });
}

/** A zip of `files` (name → bytes), deflated, dated 1980-01-01. */
export function zip(files) {
  const locals = [], centrals = [];
  let offset = 0;
  for (const [name, data] of files) {
    const nameBytes = Buffer.from(name, 'utf8');
    const packed = deflateRawSync(data, { level: 9 });
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // date: 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const lesson of lessons) {
    const slug = lesson.slug;
    const work = join(dist, '..', `.scorm-${slug}`);
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    const html = page(lesson);
    writeFileSync(join(work, 'index.html'), html);
    cli('scorm-page', join(work, 'index.html'), '--lesson', slug, '--class', klass, '--solutions', solutions,
      ...(mastery === 'none' ? [] : ['--mastery', mastery]));
    // The files the page names (`./x`), and the wasm its loader fetches.
    // (The shell's own: the lesson prerendered after this names none.)
    const named = new Set([...html.matchAll(/(?:href|src)="(?:\.\/)?([^"?#/:]+)"|'\.\/([^']+)'/g)].map((m) => m[1] ?? m[2]));
    // The modules of the pieces, which the split loader fetches beside itself (scripts/place-split.mjs).
    for (const f of buildOf(dist, html).all) named.add(f);
    for (const f of named) {
      if (f.includes('..') || f.includes('/')) throw new Error(`${f}: not a file of the build's top folder`);
      copyFileSync(join(dist, f), join(work, f));
    }
    const masteryArgs = mastery === 'none' ? ['--no-mastery'] : ['--mastery', mastery];
    cli('scorm-manifest', work, '--lesson', slug, ...masteryArgs);
    const files = walk(work).map((f) => [f, readFileSync(join(work, f))]);
    // The package's settings in its name, where they are not the defaults.
    const name = `${slug}${klass === '0' ? '' : `-clase-${klass}`}${mastery === '80' ? '' : `-dominio-${mastery}`}${SOLUTIONS[solutions]}.zip`;
    const out = flag('--out') ?? join(dist, 'scorm', name);
    mkdirSync(dirname(out), { recursive: true });
    const bytes = zip(files);
    writeFileSync(out, bytes);
    rmSync(work, { recursive: true, force: true });
    console.log(`${out}: SCORM 1.2 package of «${lesson.title}» (${files.length} files, ${bytes.length.toLocaleString('en')} bytes; class ${klass}, mastery ${mastery === 'none' ? 'none' : `${mastery} %`}, solutions ${solutions})`);
  }
}
