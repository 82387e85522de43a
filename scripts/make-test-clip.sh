#!/bin/sh
# Generates the simulator's short video and audio clip once, from ffmpeg's test pattern and a tone;
# the outputs are committed (server/simulator/clip/), so nothing runs this at build or start.
#   testClip.h264   H.264 Annex B, baseline, 320x240, 25 fps, 4 s, an IDR each second with its
#                   SPS and PPS before it (a viewer can join at any second), about 100 KB
#   testTone.g711a  G.711 A-law, 8 kHz mono, 4 s of a 1 kHz tone (32,000 bytes)
# Usage: sh scripts/make-test-clip.sh [output folder]
set -eu
out="${1:-$(dirname "$0")/../server/simulator/clip}"
mkdir -p "$out"
ffmpeg -hide_banner -loglevel error -y \
  -f lavfi -i "testsrc2=size=320x240:rate=25:duration=4" \
  -c:v libx264 -profile:v baseline -level 3.0 -pix_fmt yuv420p -preset medium -b:v 160k -maxrate 200k -bufsize 200k \
  -threads 1 -x264-params "keyint=25:min-keyint=25:scenecut=0:repeat-headers=1:bframes=0" \
  -bitexact -f h264 "$out/testClip.h264"
ffmpeg -hide_banner -loglevel error -y \
  -f lavfi -i "sine=frequency=1000:sample_rate=8000:duration=4" \
  -ac 1 -c:a pcm_alaw -bitexact -f alaw "$out/testTone.g711a"
ls -l "$out/testClip.h264" "$out/testTone.g711a"
