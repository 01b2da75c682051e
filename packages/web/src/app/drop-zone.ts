/**
 * Files dropped on `zone` become `input`'s files, as if picked (a change event follows),
 * so the file inputs stay the one source of truth for the page and for scripts.
 */
export function dropZone(zone: HTMLElement, input: HTMLInputElement): void {
  const over = (on: boolean) => zone.classList.toggle("over", on);
  zone.addEventListener("dragover", (e) => {
    e.preventDefault();
    over(true);
  });
  zone.addEventListener("dragleave", () => over(false));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    over(false);
    const dropped = e.dataTransfer?.files;
    if (!dropped?.length) return;
    const files = new DataTransfer();
    for (const f of input.multiple ? [...dropped] : [dropped[0]!]) files.items.add(f);
    input.files = files.files;
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });
}
