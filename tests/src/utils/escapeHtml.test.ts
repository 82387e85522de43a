import type { FormatNumber } from '../../../src/components/charts/numberFormat';
import { clusterIcon } from '../../../src/components/map/clusterIcon';
import { distributionOption } from '../../../src/pages/dashboard/dashboardModel';
import { seriesOption } from '../../../src/pages/statistics/statisticsModel';
import { escapeHtml } from '../../../src/utils/escapeHtml';

const MARKUP = '<img src=x onerror=alert(1)><b id="pwn">x</b> & \'q\'';
const fmt: FormatNumber = (v) => String(v ?? '-');

/** The text and elements a browser makes of an HTML string. */
const parsed = (html: string) => {
  const box = document.createElement('div');
  box.innerHTML = html;
  return { text: box.textContent, injected: box.querySelector('#pwn, img') };
};

describe('escapeHtml', () => {
  it('turns the five markup characters into entities and leaves the rest', () => {
    expect(escapeHtml(MARKUP)).toBe('&lt;img src=x onerror=alert(1)&gt;&lt;b id=&quot;pwn&quot;&gt;x&lt;/b&gt; &amp; &#39;q&#39;');
    expect(escapeHtml('沪A12345 · 上海市区限速区')).toBe('沪A12345 · 上海市区限速区');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
    expect(escapeHtml(null)).toBe('');
    expect(escapeHtml(undefined)).toBe('');
    expect(escapeHtml(42)).toBe('42');
  });

  it('reads back as the text it was, in content and in a quoted attribute', () => {
    expect(parsed(escapeHtml(MARKUP))).toEqual({ text: MARKUP, injected: null });
    const box = document.createElement('div');
    box.innerHTML = `<span title="${escapeHtml(MARKUP)}" data-x='${escapeHtml(MARKUP)}'></span>`;
    expect(box.firstElementChild!.getAttribute('title')).toBe(MARKUP);
    expect(box.firstElementChild!.getAttribute('data-x')).toBe(MARKUP);
  });
});

describe('the HTML the console builds from names and labels', () => {
  it('a distribution tooltip shows an organisation or brand name as text', () => {
    const option = distributionOption([{ key: 1, name: MARKUP, count: 3 }], (b) => b.name ?? '', fmt) as {
      tooltip: { formatter: (p: object) => string };
    };
    const html = option.tooltip.formatter({ name: MARKUP, value: 3, percent: 100 });
    expect(parsed(html)).toEqual({ text: `${MARKUP}: 3 (100%)`, injected: null });
  });

  it('a statistics tooltip shows the day and series labels as text, ECharts’ marker as markup', () => {
    const option = seriesOption(['2026-11-01'], [{ name: MARKUP, values: [5], kind: 'bar', digits: 0 }], fmt) as {
      tooltip: { formatter: (items: object[]) => string };
    };
    const html = option.tooltip.formatter([
      { axisValue: '<i>2026-11-01</i>', seriesIndex: 0, marker: '<span class="marker"></span>', seriesName: MARKUP, value: 5 },
    ]);
    const box = document.createElement('div');
    box.innerHTML = html;
    expect(box.textContent).toBe(`<i>2026-11-01</i>${MARKUP}: 5`);
    expect(box.querySelector('#pwn, img, i')).toBeNull();
    expect(box.querySelector('span.marker')).not.toBeNull();
  });

  it('a cluster’s title keeps a published status label whole, quotes included', () => {
    const icon = clusterIcon([{ key: 'moving', colour: '#52c41a', count: 2 }], `${MARKUP} 2`);
    const box = document.createElement('div');
    box.innerHTML = icon.options.html as string;
    expect(box.querySelector('[data-testid=monitor-cluster]')!.getAttribute('title')).toBe(`${MARKUP} 2`);
    expect(box.querySelector('#pwn, img')).toBeNull();
  });
});
