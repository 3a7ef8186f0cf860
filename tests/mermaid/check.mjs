// Parse a Mermaid diagram from stdin with Mermaid itself and print what it read, as JSON.
// Exit 1 with the parser's message when the diagram does not parse, or a Gantt task has no
// valid start and end. Mermaid needs a DOM to load; jsdom gives it one (no browser).
import { readFileSync } from "node:fs";
import { JSDOM } from "jsdom";

const dom = new JSDOM("<!DOCTYPE html><body></body>");
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import("mermaid");

const text = readFileSync(0, "utf8");
mermaid.initialize({ startOnLoad: false });
try {
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
  const out = { type: diagram.type };
  if (diagram.type === "gantt") {
    const tasks = diagram.db.getTasks();
    for (const t of tasks) {
      if (!(t.startTime instanceof Date) || Number.isNaN(t.startTime.getTime()) ||
          !(t.endTime instanceof Date) || !(t.endTime > t.startTime)) {
        throw new Error(`task ${t.id} (${t.task}) has no valid start and end`);
      }
    }
    out.title = diagram.db.getDiagramTitle();
    out.sections = [...new Set(tasks.map((t) => t.section))];
    out.tasks = tasks.map((t) => ({
      name: t.task.trim(), classes: t.classes,
      start: t.startTime.getTime(), end: t.endTime.getTime(),
    }));
  }
  console.log(JSON.stringify(out));
} catch (e) {
  console.error(e.message ?? String(e));
  process.exit(1);
}
