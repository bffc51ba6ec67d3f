"""Camera clips for the perceiver's tests: a public-domain face moved to nod, shake, turn or hold still.

The face is scikit-image's astronaut photograph (NASA, public domain), which the package ships.
A clip is a YUV4MPEG2 file, the format Chromium's fake camera plays
(`--use-file-for-fake-video-capture`). Head movements are drawn on the still photograph:
- nod: the face moves down and up, with a slight vertical squash at the bottom of each nod;
- shake: the face turns from side to side (a cylindrical warp, so the nose moves against the face's
  outline, plus a little sideways motion);
- turn_left / turn_right: the face turns once to the speaker's left or right and stays there (the
  speaker's left is the image's right: the camera faces the speaker);
- still: small drift and noise only.
Clips differ in amplitude, speed, zoom, where the face sits and the noise, from a seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

KINDS = ("still", "nod", "shake", "turn_left", "turn_right")
WIDTH, HEIGHT, FPS = 320, 240, 15
FACE = (205.0, 140.0)
"""Where the face's centre is in the photograph (x, y)."""


@dataclass(frozen=True)
class Clip:
    """One generated clip: what it shows and where it is."""

    kind: str
    path: Path
    seconds: float


def _photo() -> np.ndarray:
    from skimage import data

    return np.asarray(data.astronaut(), dtype=np.float32)


def _frame(
    photo: np.ndarray, *, dx: float, dy: float, yaw: float, squash: float, zoom: float, at: tuple[float, float]
) -> np.ndarray:
    """One frame: the photograph seen through a window centred on the face, the head moved as asked.

    `dx`, `dy`: the face's shift in the image (pixels); `yaw`: its turn (radians, positive to the
    image's right); `squash`: vertical compression of the face (a nod's downward phase); `zoom`: scale.
    """
    ys, xs = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    cx, cy = FACE
    # output pixel -> photo coordinates
    px = (xs - at[0]) / zoom + cx - dx / zoom
    py = (ys - at[1]) / zoom + cy - dy / zoom
    radius = 95.0
    rel = px - cx
    inside = np.abs(rel) < radius * 0.999
    phi = np.arcsin(np.clip(rel / radius, -0.999, 0.999)) - yaw
    turned = cx + radius * np.sin(np.clip(phi, -math.pi / 2, math.pi / 2))
    px = np.where(inside, turned, px - radius * math.sin(yaw) * 0.3)
    py = cy + (py - cy) * (1.0 + squash)
    h, w = photo.shape[:2]
    xi = np.clip(px, 0, w - 1).astype(np.int32)
    yi = np.clip(py, 0, h - 1).astype(np.int32)
    return photo[yi, xi]


def _write_y4m(path: Path, frames: list[np.ndarray], fps: int = FPS) -> None:
    with path.open("wb") as f:
        f.write(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
        for frame in frames:
            image = Image.fromarray(np.clip(frame, 0, 255).astype(np.uint8)).convert("YCbCr")
            y, cb, cr = (np.asarray(c) for c in image.split())
            f.write(b"FRAME\n")
            f.write(y.tobytes())
            half = (WIDTH // 2, HEIGHT // 2)
            f.write(np.asarray(Image.fromarray(cb).resize(half)).tobytes())
            f.write(np.asarray(Image.fromarray(cr).resize(half)).tobytes())


def make_clip(kind: str, folder: Path, seed: int = 0, seconds: float = 4.0, fps: int = FPS) -> Clip:
    """Write clip `kind` (one of `KINDS`), varied by `seed`, into `folder`, at `fps` frames a second."""
    if kind not in KINDS:
        raise ValueError(f"unknown clip kind {kind!r}")
    rng = np.random.default_rng(seed)
    photo = _photo()
    zoom = float(rng.uniform(0.85, 1.15))
    at = (WIDTH / 2 + float(rng.uniform(-25, 25)), HEIGHT / 2 + float(rng.uniform(-15, 15)))
    period = float(rng.uniform(0.7, 1.2))  # seconds per nod or shake
    amp = float(rng.uniform(0.8, 1.2))
    n = int(seconds * fps)
    start = int(0.5 * fps)  # the movement starts half a second in
    frames = []
    drift = rng.normal(0, 0.6, size=(n, 2)).cumsum(axis=0) * 0.3
    for i in range(n):
        t = max(0, i - start) / fps
        moving = i >= start
        dx, dy = float(drift[i, 0]), float(drift[i, 1])
        yaw = squash = 0.0
        if kind == "nod" and moving:
            s = math.sin(2 * math.pi * t / period)
            dy += 16 * amp * s
            squash = -0.06 * amp * max(0.0, s)
        elif kind == "shake" and moving:
            s = math.sin(2 * math.pi * t / period)
            yaw = 0.45 * amp * s
            dx += 10 * amp * s
        elif kind in ("turn_left", "turn_right") and moving:
            sign = 1.0 if kind == "turn_left" else -1.0  # the speaker's left is the image's right
            k = min(1.0, t / 0.6)
            yaw = sign * 0.5 * amp * k
            dx += sign * 22 * amp * k
        frame = _frame(photo, dx=dx, dy=dy, yaw=yaw, squash=squash, zoom=zoom, at=at)
        frame = frame + rng.normal(0, 2.0, size=frame.shape).astype(np.float32)
        frames.append(frame)
    path = folder / f"{kind}-{seed}-{fps}.y4m"
    _write_y4m(path, frames, fps)
    return Clip(kind, path, seconds)


__all__ = ["FPS", "HEIGHT", "KINDS", "WIDTH", "Clip", "make_clip"]
