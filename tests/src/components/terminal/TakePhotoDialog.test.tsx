import { act, fireEvent, screen } from '@testing-library/react';
import CommandButton from '../../../../src/components/terminal/CommandButton';
import * as commands from '../../../../src/services/commands';
import { resetNavigation } from '../../../../src/session/navigationStore';
import { grant, mocked, polyfillMatchMedia, renderConsole, settle } from '../consoleHarness';

// The calls are covered by the server's integration tests (takePhoto.test.ts); here, the dialog around them.
jest.mock('../../../../src/services/commands', () => ({
  ...jest.requireActual('../../../../src/services/commands'),
  sendCommand: jest.fn(),
  commandById: jest.fn(),
  commandPhotos: jest.fn(),
  mediaFile: jest.fn(),
}));
const sendCommand = mocked(commands.sendCommand);
const commandPhotos = mocked(commands.commandPhotos);
const mediaFile = mocked(commands.mediaFile);

// Rendering antd's dialogs in jsdom takes 15–30 s a test alone, and past a minute on a loaded machine.
jest.setTimeout(180_000);

const photo = (id: number, mediaId: number) => ({
  id,
  mediaId,
  channel: 2,
  takenAt: null,
  receivedAt: '2026-12-07T10:00:00Z',
  bytes: 9000,
});

beforeAll(() => {
  polyfillMatchMedia();
  // jsdom has no object URLs.
  URL.createObjectURL = jest.fn((b: Blob) => `blob:${b.size}`);
  URL.revokeObjectURL = jest.fn();
});
afterEach(() => {
  jest.clearAllMocks();
  act(() => resetNavigation());
});

describe('take photo in the command dialog', () => {
  it('sends what was asked, shows the answer’s photo ids, then each photo as it arrives', async () => {
    grant('terminal-command');
    sendCommand.mockResolvedValue({
      id: 41,
      kind: 'photo',
      status: 'acked',
      result: 0,
      request: { channel: 2, count: 2, save: false },
      response: { photo: 'ok', mediaIds: [7, 8] },
    });
    // The first photo is there at the first look, the second at the next.
    commandPhotos
      .mockResolvedValueOnce({ data: [photo(100, 7)], expected: 2 })
      .mockResolvedValue({ data: [photo(100, 7), photo(101, 8)], expected: 2 });
    mediaFile.mockResolvedValue(new Blob([new Uint8Array(9000)], { type: 'image/jpeg' }));
    renderConsole(<CommandButton terminalId={5} />, 'en-US');
    fireEvent.click(screen.getByTestId('card-command'));
    await settle();
    fireEvent.click(screen.getByTestId('command-kind-photo'));
    await settle();
    fireEvent.change(screen.getByTestId('photo-channel').querySelector('input') ?? screen.getByTestId('photo-channel'), {
      target: { value: '2' },
    });
    fireEvent.change(screen.getByTestId('photo-count').querySelector('input') ?? screen.getByTestId('photo-count'), {
      target: { value: '2' },
    });
    fireEvent.click(screen.getByTestId('command-send'));
    await settle();
    expect(sendCommand).toHaveBeenCalledWith(5, {
      kind: 'photo',
      channel: 2,
      count: 2,
      interval: 0,
      resolution: 1,
      quality: 5,
      save: false,
    });
    expect(screen.getByTestId('command-answer').textContent).toContain('Photos taken: 7, 8');
    // The dialog asks again every 2 s: wait (in act, so its updates land) until the second photo is shown.
    const arrived = () => screen.queryByTestId('taken-photos')?.getAttribute('data-arrived') === '2';
    for (let i = 0; i < 100 && !arrived(); i++) await settle(100);
    expect(screen.getByTestId('taken-photos').textContent).toContain('All 2 photos arrived');
    expect(screen.getAllByTestId('taken-photo')).toHaveLength(2);
    expect(commandPhotos).toHaveBeenCalledWith(5, 41);
    expect(mediaFile.mock.calls.map((c) => c[0])).toEqual([100, 101]);
  });
});
