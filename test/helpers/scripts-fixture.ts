// Small documents in scripts other than Latin (and one code file with non-ASCII comments), written for
// the tests (not taken from any benchmark): each language's file and a question its line answers.
export const SCRIPT_FILES: Record<string, string> = {
  'ar/مدن.txt': [
    'تقع مدينة القاهرة على ضفاف نهر النيل في مصر.',
    'يعمل المهندسون على تصميم جسر جديد فوق النهر.',
    'فاز الفريق بالبطولة بعد موسم صعب.',
    'تأسست الجامعة في عام ألف وتسعمائة وثمانية.',
    'يحب الأطفال قراءة القصص قبل النوم.',
  ].join('\n') + '\n',
  'zh/地理.txt': [
    '北京是中华人民共和国的首都。',
    '长江是亚洲最长的河流。',
    '这支球队在艰难的赛季后赢得了冠军。',
    '大学成立于一九零八年。',
    '孩子们喜欢在睡觉前读故事。',
  ].join('\n') + '\n',
  'hi/भूगोल.txt': [
    'दिल्ली भारत की राजधानी है।',
    'गंगा नदी हिमालय से निकलती है।',
    'टीम ने कठिन सत्र के बाद चैंपियनशिप जीती।',
    'विश्वविद्यालय की स्थापना उन्नीस सौ आठ में हुई थी।',
    'बच्चे सोने से पहले कहानियाँ पढ़ना पसंद करते हैं।',
  ].join('\n') + '\n',
  'ru/отчёт.md': [
    '# Годовой отчёт',
    '',
    'Москва — столица России и крупнейший город страны.',
    'Команда выиграла чемпионат после трудного сезона.',
    'Отчёт написал главный инженер проекта.',
  ].join('\n') + '\n',
  'src/größe.ts': [
    '// Größe der Datei in Bytes (ﬁle size), für den Bericht',
    'export function dateiGröße(pfad: string): number {',
    '  return statSync(pfad).size; // 文件大小',
    '}',
    'export const ΜέγιστοΜέγεθος = 1024;',
  ].join('\n') + '\n',
};

/** Questions, each with the file and 0-based line that answers it. */
export const SCRIPT_QUERIES: { query: string; file: string; line: number }[] = [
  { query: 'أين تقع مدينة القاهرة', file: 'ar/مدن.txt', line: 0 },
  { query: '亚洲最长的河流是什么', file: 'zh/地理.txt', line: 1 },
  { query: 'गंगा नदी कहाँ से निकलती है', file: 'hi/भूगोल.txt', line: 1 },
  { query: 'кто написал отчёт', file: 'ru/отчёт.md', line: 4 },
  // The line that defines dateiGröße outranks the comment that names both words (the definition boost).
  { query: 'GRÖSSE der Datei', file: 'src/größe.ts', line: 1 },
];
