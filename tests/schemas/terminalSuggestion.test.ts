import { isSuggestQuery, SUGGEST_QUERY } from '../../schemas/kit/terminalSuggestion';
import { createAjv } from '../../schemas/kit/ajv';

describe('terminal suggest search text', () => {
  const server = createAjv().compile({ type: 'string', ...SUGGEST_QUERY });
  const cases = ['8080', 'HW21abc', '1'.repeat(30), '', '1'.repeat(31), '80 80', '80-80', '终端', '%'];

  it('accepts letters and digits, 1 to 30 of them', () => {
    expect(cases.filter(isSuggestQuery)).toEqual(['8080', 'HW21abc', '1'.repeat(30)]);
  });

  it('is the rule the server validates the route parameter with', () => {
    for (const q of cases) expect([q, isSuggestQuery(q)]).toEqual([q, server(q)]);
  });
});
