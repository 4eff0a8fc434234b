// A virtual list: rows of one height, of which only those in view (and a
// few around) are in the document, so that a list of 40,000 events costs
// what 40 rows cost.
export class VList {
  constructor(container, rowHeight, renderRow, onNearEnd) {
    this.el = container;
    this.h = rowHeight;
    this.renderRow = renderRow;
    this.onNearEnd = onNearEnd;
    this.items = [];
    this.inner = document.createElement('div');
    this.inner.className = 'vlist-inner';
    this.el.append(this.inner);
    this.el.addEventListener('scroll', () => this.schedule());
    this.raf = 0;
    this.fresh = new Set();
  }
  // set replaces the items.
  set(items) { this.items = items; this.schedule(); }
  // prepend adds items at the top, keeping what is in view where it is
  // unless the list is scrolled to the top.
  prepend(items) {
    if (!items.length) return;
    this.items = items.concat(this.items);
    for (const it of items) this.fresh.add(it);
    if (this.el.scrollTop > 0) this.el.scrollTop += items.length * this.h;
    this.schedule();
  }
  append(items) { this.items = this.items.concat(items); this.schedule(); }
  schedule() {
    if (!this.raf) this.raf = requestAnimationFrame(() => { this.raf = 0; this.draw(); });
  }
  draw() {
    const n = this.items.length;
    this.inner.style.height = n * this.h + 'px';
    const view = this.el.clientHeight || 360;
    const top = this.el.scrollTop;
    const first = Math.max(0, Math.floor(top / this.h) - 8);
    const last = Math.min(n, Math.ceil((top + view) / this.h) + 8);
    const rows = [];
    for (let i = first; i < last; i++) {
      const row = this.renderRow(this.items[i], i);
      row.classList.add('row');
      if (this.fresh.has(this.items[i])) row.classList.add('fresh');
      row.style.top = i * this.h + 'px';
      row.style.height = this.h + 'px';
      rows.push(row);
    }
    this.fresh.clear();
    this.inner.replaceChildren(...rows);
    if (this.onNearEnd && last >= n - 20) this.onNearEnd();
  }
}
