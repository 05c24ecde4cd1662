// The prose dev set: XQuAD-R (google-research-datasets/lareqa, CC BY-SA 4.0) in ar, de, en, es, hi
// and zh only (the other five languages are held out and never read). Per language: its sentences in
// one file, one per line, and each question labelled with the line(s) of its answering sentence.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRng } from '../prng.js';
import { findGitDir } from '../quality/git-export.js';

export const DEV_LANGUAGES = ['ar', 'de', 'en', 'es', 'hi', 'zh'] as const;
export type DevLanguage = (typeof DEV_LANGUAGES)[number];
/** The lareqa commit measured (a snapshot brought in with the search tool's `fetch github:google-research-datasets/lareqa`). */
export const LAREQA_PIN = '9bc8c7fb6dd8d01d72a05a93c2cb96882b0d299c';
export const LAREQA_LICENCE = 'CC BY-SA 4.0 (the repository\'s LICENSE)';

export interface Question { id: string; text: string; labels: number[] }
export interface LanguageSet { lang: DevLanguage; file: string; lines: string[]; questions: Map<string, Question> }

interface Squad { data: { paragraphs: { sentences: string[]; sentence_breaks: [number, number][]; qas: { id: string; question: string; answers: { answer_start: number }[] }[] }[] }[] }

/** Reads one dev language from the bare git dir and writes its sentence file under `dir`. */
export function loadLanguage(lang: DevLanguage, dir: string): LanguageSet {
  if (!(DEV_LANGUAGES as readonly string[]).includes(lang)) throw new Error(`${lang} is not a dev language (held out)`);
  const git = findGitDir('google-research-datasets/lareqa');
  if (!git) throw new Error('lareqa is missing: `fetch github:google-research-datasets/lareqa` (or set SIMGREP_GIT_MIRRORS)');
  const json = execFileSync('git', ['--git-dir', git, 'show', `${LAREQA_PIN}:xquad-r/${lang}.json`], { maxBuffer: 64 << 20, encoding: 'utf8' });
  const squad = JSON.parse(json) as Squad;
  const lines: string[] = [];
  const lineOf = new Map<string, number[]>();
  const questions = new Map<string, Question>();
  for (const article of squad.data) {
    for (const p of article.paragraphs) {
      const at: number[] = [];
      for (const s of p.sentences) {
        const text = s.replace(/\s+/g, ' ').trim();
        at.push(lines.length);
        const same = lineOf.get(text);
        if (same) same.push(lines.length); else lineOf.set(text, [lines.length]);
        lines.push(text);
      }
      for (const qa of p.qas) {
        const start = qa.answers[0].answer_start;
        let k = p.sentence_breaks.findIndex(([from, to]) => start >= from && start < to);
        if (k < 0) k = p.sentence_breaks.length - 1;
        // Identical sentences elsewhere in the file answer as well.
        questions.set(qa.id, { id: qa.id, text: qa.question, labels: lineOf.get(lines[at[k]])!.slice() });
      }
    }
  }
  // A sentence seen again later also labels the earlier questions.
  for (const q of questions.values()) q.labels = lineOf.get(lines[q.labels[0]])!.slice();
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `xquad-r-${lang}.txt`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { lang, file, lines, questions };
}

/** The ids of the questions every set has, in one seeded order (the bench and the probes take slices of it). */
export function shuffledCommonIds(sets: LanguageSet[], seed: number): string[] {
  const common = [...sets[0].questions.keys()].filter((id) => sets.every((s) => s.questions.has(id))).sort();
  const rng = createRng(seed);
  for (let i = common.length - 1; i > 0; i--) { const j = rng.int(0, i); [common[i], common[j]] = [common[j], common[i]]; }
  return common;
}
