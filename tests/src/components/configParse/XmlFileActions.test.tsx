import { act, fireEvent, screen } from '@testing-library/react';
import XmlFileActions from '../../../../src/components/configParse/XmlFileActions';
import * as xmlFileService from '../../../../src/components/configParse/xmlFileService';
import { resetNavigation } from '../../../../src/session/navigationStore';
import { grant, mocked, pageContext, polyfillMatchMedia, renderConsole, settle } from '../consoleHarness';

// The calls themselves are covered by the server's integration tests; here, what the row does with
// their answers. (No imported name in a type position in this file: jest.mock makes babel compile it.)
jest.mock('../../../../src/components/configParse/xmlFileService', () => ({
  ...jest.requireActual('../../../../src/components/configParse/xmlFileService'),
  uploadXml: jest.fn(),
  downloadXml: jest.fn(),
  saveBlob: jest.fn(),
}));

const uploadXml = mocked(xmlFileService.uploadXml);
const downloadXml = mocked(xmlFileService.downloadXml);
const saveBlob = mocked(xmlFileService.saveBlob);

beforeAll(polyfillMatchMedia);
afterEach(() => {
  jest.clearAllMocks();
  act(() => resetNavigation());
});

function ui(row: Record<string, unknown> & { id: number }) {
  const ctx = pageContext([row]);
  renderConsole(<XmlFileActions row={row} ctx={ctx} />);
  return ctx;
}

const fileInput = () => document.querySelector('input[type=file]') as HTMLInputElement;
async function choose(file: File) {
  fireEvent.change(fileInput(), { target: { files: [file] } });
  await settle();
}
const xml = (name: string, size?: number) => {
  const f = new File(['<config/>'], name, { type: 'text/xml' });
  if (size !== undefined) Object.defineProperty(f, 'size', { value: size });
  return f;
};

describe('configuration parse file row actions', () => {
  it('offers upload only with configParseFile-edit, download only once a file is kept', () => {
    grant('configParseFile-add');
    ui({ id: 1 });
    expect(screen.queryByTestId('xml-upload')).toBeNull();
    expect(screen.queryByTestId('xml-download')).toBeNull();
    grant('configParseFile-edit');
    expect(screen.getByTestId('xml-upload')).toBeTruthy();
    expect(fileInput().accept).toContain('.xml');
  });

  it('refuses another type and a file over 1 MB before sending anything', async () => {
    grant('configParseFile-edit');
    ui({ id: 3 });
    await choose(xml('config.txt'));
    expect(await screen.findByText('只能上传 xml 文件')).toBeTruthy();
    await choose(xml('big.xml', 1024 * 1024 + 1));
    expect(await screen.findByText('文件不能超过1 MB')).toBeTruthy();
    expect(uploadXml).not.toHaveBeenCalled();
  });

  it('uploads a chosen .xml file and reloads the list', async () => {
    grant('configParseFile-edit');
    uploadXml.mockResolvedValue({ id: 4, fileName: 'a.XML' });
    const ctx = ui({ id: 4 });
    const file = xml('a.XML');
    await choose(file);
    expect(uploadXml).toHaveBeenCalledWith(4, file, 'a.XML');
    expect(await screen.findByText('上传成功')).toBeTruthy();
    expect(ctx.reload).toHaveBeenCalledTimes(1);
  });

  it("shows the refusals the request layer leaves silent in the server's words, and does not reload", async () => {
    grant('configParseFile-edit');
    uploadXml.mockRejectedValue({
      response: { status: 413, data: { success: false, code: 'upload.tooLarge', message: '文件不能超过1 MB' } },
    });
    const ctx = ui({ id: 5 });
    await choose(xml('a.xml'));
    expect(await screen.findByText('文件不能超过1 MB')).toBeTruthy();
    expect(ctx.reload).not.toHaveBeenCalled();
    uploadXml.mockRejectedValue({ response: { status: 502, data: '' } });
    await choose(xml('b.xml'));
    expect(await screen.findByText('上传失败')).toBeTruthy();
    // A 400 (bad XML) is toasted by the request layer with the server's message (SPEC.md §8): not twice.
    uploadXml.mockRejectedValue({ response: { status: 400, data: { success: false, message: 'XML 文件格式不正确' } } });
    await choose(xml('c.xml'));
    await settle(50);
    expect(screen.queryByText('XML 文件格式不正确')).toBeNull();
  });

  it('downloads the kept file under its name, and reads a refusal sent as a blob', async () => {
    grant();
    const blob = new Blob(['<config/>'], { type: 'application/xml' });
    downloadXml.mockResolvedValue(blob);
    ui({ id: 6, fileName: 'J6P 解析.xml' });
    fireEvent.click(screen.getByTestId('xml-download'));
    await settle();
    expect(downloadXml).toHaveBeenCalledWith(6);
    expect(saveBlob).toHaveBeenCalledWith(blob, 'J6P 解析.xml');
    // A refused download arrives as a blob holding the JSON error.
    const refused = new Blob([JSON.stringify({ success: false, message: '数据不存在或已被删除' })], { type: 'application/json' });
    if (typeof refused.text !== 'function') {
      // jsdom's Blob lacks text(); browsers have it.
      refused.text = () =>
        new Promise<string>((resolve) => {
          const r = new FileReader();
          r.onload = () => resolve(String(r.result));
          r.readAsText(refused);
        });
    }
    downloadXml.mockRejectedValue({ response: { status: 404, data: refused } });
    fireEvent.click(screen.getByTestId('xml-download'));
    await settle(50);
    expect(await screen.findByText('数据不存在或已被删除')).toBeTruthy();
  });
});
