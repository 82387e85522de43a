/**
 * Terminal audio to PCM: G.711 A-law and µ-law by the standard's tables, IMA ADPCM, HiSilicon's
 * frame header dropped, and the message a viewer gets.
 */

import { AV_CODING } from '../../../../server/telematics/jt808/codec';
import {
  alawSample,
  AUDIO_MESSAGE,
  audioMessage,
  decodeAudio,
  imaAdpcm,
  ulawSample,
  withoutHisiHeader,
} from '../../../../server/telematics/video/audio';

describe('terminal audio', () => {
  it('decodes G.711 as ITU-T G.711 tables it', () => {
    // A-law: 0xD5 / 0x55 are the smallest positive / negative values, 0xAA / 0x2A the largest.
    expect([0xd5, 0x55, 0xaa, 0x2a].map(alawSample)).toEqual([8, -8, 32256, -32256]);
    // µ-law: 0xFF / 0x7F are zero, 0x80 / 0x00 the largest.
    expect([0xff, 0x7f, 0x80, 0x00].map(ulawSample)).toEqual([0, 0, 32124, -32124]);
    expect(Array.from(decodeAudio(AV_CODING.g711a, Buffer.from([0xd5, 0x2a]))!)).toEqual([8, -32256]);
    expect(Array.from(decodeAudio(AV_CODING.g711u, Buffer.from([0x80]))!)).toEqual([32124]);
    expect(decodeAudio(AV_CODING.aac, Buffer.from([1, 2]))).toBeNull();
  });

  it('drops a HiSilicon header only when its length matches', () => {
    const body = Buffer.from([0xd5, 0xd5, 0xd5, 0xd5]);
    expect(withoutHisiHeader(Buffer.concat([Buffer.from([0, 1, 2, 0]), body]))).toEqual(body);
    const notOne = Buffer.from([0, 1, 9, 0, 0xd5, 0xd5]);
    expect(withoutHisiHeader(notOne)).toEqual(notOne);
    expect(decodeAudio(AV_CODING.g711a, Buffer.concat([Buffer.from([0, 1, 2, 0]), body]))).toHaveLength(4);
  });

  it('decodes IMA ADPCM from the frame’s state', () => {
    // State: sample 1000, step index 0; nibbles 7 (up by 7 * 7/4 + 7/8) then 0xF (down again).
    const pcm = imaAdpcm(Buffer.from([0xe8, 0x03, 0, 0, 0xf7]));
    expect(pcm).toHaveLength(2);
    expect(pcm[0]).toBe(1000 + 0 + 7 + 3 + 1); // step 7: 7>>3 + 7 + 7>>1 + 7>>2
    expect(pcm[1]).toBeLessThan(pcm[0]);
    // A step index past the table is held at its end; samples stay in 16 bits.
    expect(Array.from(imaAdpcm(Buffer.from([0xff, 0x7f, 200, 0, 0x77])))).toEqual([32767, 32767]);
  });

  it('frames PCM as the viewer’s message', () => {
    const m = audioMessage(Int16Array.from([1, -2]));
    expect(m[0]).toBe(AUDIO_MESSAGE);
    expect(m.readUInt32BE(2)).toBe(8000);
    expect([m.readInt16LE(6), m.readInt16LE(8)]).toEqual([1, -2]);
  });
});
