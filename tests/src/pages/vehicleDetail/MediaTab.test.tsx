import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MediaTab } from '../../../../src/pages/vehicleDetail/MediaTab';
import * as media from '../../../../src/services/media';
import * as blobs from '../../../../src/utils/saveBlob';
import { mocked, polyfillMatchMedia, renderConsole } from '../../components/consoleHarness';

// The list route and its filters are covered through the real gateway and database (media.test.ts); here, the tab around them.
jest.mock('../../../../src/services/media', () => ({
  ...jest.requireActual('../../../../src/services/media'),
  vehicleMedia: jest.fn(),
  mediaFile: jest.fn(),
}));
jest.mock('../../../../src/utils/saveBlob', () => ({ saveBlob: jest.fn() }));
const vehicleMedia = mocked(media.vehicleMedia);
const mediaFile = mocked(media.mediaFile);
const saveBlob = mocked(blobs.saveBlob);

// antd's tables and selects in jsdom are slow on a loaded machine.
jest.setTimeout(120_000);

const RANGE = { begin: '2026-12-01T00:00:00.000Z', end: '2026-12-08T00:00:00.000Z' };

// Untyped: a file that calls jest.mock is compiled without TypeScript types (consoleHarness.tsx).
const item = (id: number, over: object) => ({
  id,
  mediaId: id + 100,
  type: 'image',
  format: 'jpeg',
  event: 1,
  eventName: 'timed',
  channel: 1,
  latitude: null,
  longitude: null,
  takenAt: '2026-12-07T10:00:00.000Z',
  receivedAt: '2026-12-07T10:00:02.000Z',
  bytes: 20_480,
  url: `/api/vehicle/media/${id}/content`,
  ...over,
});

beforeAll(() => {
  polyfillMatchMedia();
  // jsdom has no object URLs.
  URL.createObjectURL = jest.fn((b: Blob) => `blob:${b.size}`);
  URL.revokeObjectURL = jest.fn();
});
afterEach(() => jest.clearAllMocks());

/** antd renders slowly under jsdom on a loaded machine: wait for a state up to this long. */
const slow = { timeout: 60_000 };

const lastQuery = () => vehicleMedia.mock.calls[vehicleMedia.mock.calls.length - 1];

describe('the vehicle detail’s media tab', () => {
  it('shows photos inline and other files to download, newest first, filtered by event and channel, paged', async () => {
    vehicleMedia.mockResolvedValue({
      total: 45,
      data: [
        item(10, { event: 3, eventName: 'collisionAlarm', channel: 2 }),
        item(11, { type: 'audio', format: 'mp3', event: 0, eventName: 'platformCommand', bytes: 3 << 20 }),
      ],
    });
    mediaFile.mockImplementation(async (id: number) => new Blob([new Uint8Array(id === 10 ? 900 : 1200)]));
    renderConsole(<MediaTab vehicleId={7} initial={RANGE} />, 'en-US');

    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(3), slow);
    expect(vehicleMedia).toHaveBeenCalledWith(7, RANGE, {}, 1, 20);
    const [photoRow, soundRow] = screen.getAllByRole('row').slice(1);
    expect(within(photoRow).getByText('Collision alarm')).toBeTruthy();
    // The photo inline, from its bytes fetched with the session; the recording has no thumbnail.
    await waitFor(() => expect(photoRow.querySelector('img')?.getAttribute('src')).toBe('blob:900'), slow);
    expect(mediaFile).toHaveBeenCalledWith(10);
    expect(soundRow.querySelector('img')).toBeNull();
    expect(within(soundRow).getByText('Recording')).toBeTruthy();
    expect(within(soundRow).getByText('3 MB')).toBeTruthy();

    fireEvent.click(within(soundRow).getByTestId('media-download'));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledWith(expect.any(Blob), 'media-11.mp3'), slow);

    // By event: the collision alarm's media, from the first page.
    fireEvent.mouseDown(screen.getByTestId('media-event').querySelector('.ant-select-selector')!);
    fireEvent.click(await screen.findByText('Collision alarm', { selector: '.ant-select-item-option-content' }, slow));
    await waitFor(() => expect(lastQuery()).toEqual([7, RANGE, { event: 3 }, 1, 20]), slow);
    // And channel 2.
    fireEvent.change(screen.getByTestId('media-channel').querySelector('input') ?? screen.getByTestId('media-channel'), {
      target: { value: '2' },
    });
    await waitFor(() => expect(lastQuery()).toEqual([7, RANGE, { event: 3, channel: 2 }, 1, 20]), slow);

    // The next page keeps the filters.
    fireEvent.click(await screen.findByTitle('2', undefined, slow));
    await waitFor(() => expect(lastQuery()).toEqual([7, RANGE, { event: 3, channel: 2 }, 2, 20]), slow);
  });
});
