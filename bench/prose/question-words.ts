// Question words of many languages: words that a question holds and its answer does not ("what",
// "什么", "¿qué", "welche", "क्या", "ما"). A document states things; it rarely asks, so such a word is
// rare in it, and a plain BM25 gives it a high idf and lifts the few lines that happen to hold it.
// A table for question-probe.ts: leaving them out of prose lines' score was measured and not
// shipped (+0.001 mean MRR@10 on the tuning questions, -0.008 on the next 40: docs/models.md).
import { fold } from '../../src/rank/lexical/words.js';

/**
 * Interrogative pronouns, determiners and adverbs and question particles, per language, as written
 * (folded when the table is made). From the languages' grammars, not from any benchmark's questions.
 * Left out where the word is a content word elsewhere (English `comment`, `come`, `dove`, `ai`,
 * `apa`, `mana`, `kim`, `hoe`, `wat`; French `onde`; Greek letters `chi`, `mu`; `co-`, `ne`, `mi`,
 * `ile`, `sao`, `wen`): a query in any language may hold them meaning something else.
 */
const BY_LANGUAGE: Record<string, string> = {
  ar: 'ما ماذا بماذا لماذا من لمن ممن متى أين كيف كم أي أية هل',
  de: 'wer wem wessen wie wann wo warum weshalb wieso weswegen welche welcher welches welchen welchem wieviel wieviele wozu woher wohin womit wofür worauf wodurch worin woran worüber wovon',
  el: 'τι τί ποιος ποια ποιο ποιοι ποιες ποιου ποιον ποιων ποιους ποιας πού πότε πώς γιατί πόσο πόσα πόσοι πόσες πόσους πόσων πόση πόσης',
  en: 'what which when where who whom whose why how',
  es: 'qué cuál cuáles cuándo cuánto cuánta cuántos cuántas dónde adónde quién quiénes cómo',
  fr: 'que quoi qui quel quelle quels quelles quand où pourquoi combien lequel laquelle lesquels lesquelles',
  hi: 'क्या कौन कौनसा कौनसी कौनसे किस किसे किसको किसने किसका किसकी किसके किन किनका किनकी किनके किन्हें किन्होंने कब कहाँ कहां क्यों कैसे कैसा कैसी कितना कितनी कितने',
  id: 'apakah siapa siapakah kapan kapankah manakah dimana mengapa kenapa bagaimana bagaimanakah berapa berapakah',
  it: 'che cosa quale quali quando perché quanto quanta quanti quante',
  ja: '何 なに なん 誰 だれ いつ どこ なぜ 何故 どう どの どれ どちら どんな いくつ いくら',
  ko: '무엇 무엇을 무엇이 무엇인가 누구 누가 누구를 누구인가 언제 어디 어디에 어디서 어디에서 왜 어떻게 어떤 어느 몇 얼마 얼마나 무슨',
  nl: 'wie welk welke wanneer waar waarom hoeveel waardoor waarmee waarin waarop',
  pl: 'kto gdzie kiedy dlaczego czemu jak jaki jaka jakie jakiego jakiej jakim jakich jakimi który która które którego której których którym którymi czy czego kogo komu czym',
  pt: 'qual quais quando quem como porque porquê quê quanto quanta quantos quantas',
  ru: 'что кто где когда почему зачем как какой какая какое какие какого какую каком каким какими каких какому сколько чей чья чьё чьи ли кого кому кем чем чего куда откуда',
  th: 'อะไร ใคร ที่ไหน ไหน เมื่อไร เมื่อไหร่ อย่างไร ยังไง ทำไม เท่าไร เท่าไหร่ กี่ หรือไม่ ไหม',
  tr: 'neyi neyin neye neden nedir niçin niye kimi kime kimin kimdir nerede nereye nereden neresi nasıl hangi hangisi kaç mı mü',
  uk: 'що хто де коли чому навіщо як який яка яке які якого яку якому якій яким якими яких скільки чий чия чиє чиї кого кому ким чим чого куди звідки чи',
  vi: 'gì nào đâu mấy nhiêu',
  zh: '什么 什麼 甚么 甚麼 哪 哪个 哪個 哪些 哪里 哪裡 哪儿 哪兒 哪位 哪一 哪种 哪種 哪年 谁 誰 为什么 為什麼 为何 為何 何时 何時 何处 何處 何 如何 多少 几 幾 怎么 怎麼 怎样 怎樣 什么时候 什麼時候 吗 嗎 呢',
};

const QUESTION_WORDS = new Set(Object.values(BY_LANGUAGE).flatMap((list) => list.split(' ').map(fold)));

/** Whether a folded word (words.ts fold) is a question word of some language. */
export function isQuestionWord(folded: string): boolean {
  return QUESTION_WORDS.has(folded);
}
