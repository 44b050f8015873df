// The splitter between the list and the delivery pane: dragged with a pointer or moved with
// the arrow keys, it sets the pane's share of the width (--detail-width, 20% to 80%).

const MIN = 20;
const MAX = 80;

export function resizable(splitter: HTMLElement, panes: HTMLElement): void {
  const set = (percent: number) => {
    const p = Math.round(Math.min(MAX, Math.max(MIN, percent)));
    panes.style.setProperty('--detail-width', `${p}%`);
    splitter.setAttribute('aria-valuenow', String(p));
  };
  splitter.addEventListener('pointerdown', (down) => {
    splitter.setPointerCapture(down.pointerId);
    const box = panes.getBoundingClientRect();
    const follow = (e: PointerEvent) => set(((box.right - e.clientX) / box.width) * 100);
    splitter.addEventListener('pointermove', follow);
    splitter.addEventListener('pointerup', () => splitter.removeEventListener('pointermove', follow), { once: true });
  });
  splitter.addEventListener('keydown', (e) => {
    const now = Number(splitter.getAttribute('aria-valuenow'));
    const step = e.key === 'ArrowLeft' ? 5 : e.key === 'ArrowRight' ? -5 : 0;
    if (!step) return;
    e.preventDefault();
    set(now + step);
  });
}
