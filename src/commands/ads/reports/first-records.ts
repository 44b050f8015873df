// --limit N with --out and no --sort: the header and the first N rows of the API's CSV go
// through to the destination as they arrive, byte for byte, and then the download stops, so
// memory stays flat and a large report is not fetched whole for its first rows.
import type { DownloadSink } from '../../../http/download.js';
import { RecordEnds } from './csv-records.js';
import type { SaveTarget } from './save-target.js';

export interface FirstRecordsTarget extends SaveTarget {
  /** Once the records are all written: the destination's end (flushed, closed); undefined until then. */
  readonly cut: Promise<void> | undefined;
  /** Bytes handed to the destination by the current attempt. */
  readonly written: number;
}

/** `target` fed only the first `records` records (the header counts); `enough` is called once they are in. */
export function firstRecords(target: SaveTarget, records: number, enough: () => void): FirstRecordsTarget {
  let cut: Promise<void> | undefined;
  let written = 0;
  return {
    get cut() {
      return cut;
    },
    get written() {
      return written;
    },
    restartable: target.restartable,
    commit: () => target.commit(),
    abandon: () => target.abandon(),
    open(): DownloadSink {
      const sink = target.open();
      const ends = new RecordEnds();
      let seen = 0;
      cut = undefined;
      written = 0;
      return {
        write(chunk: Buffer) {
          // After the cut the download is being stopped: what still arrives is not wanted.
          if (cut) return cut;
          let keep = chunk.length;
          for (const end of ends.in(chunk)) {
            if (++seen < records) continue;
            keep = end;
            break;
          }
          written += keep;
          if (keep === chunk.length && seen < records) return sink.write(chunk);
          cut = Promise.resolve(sink.write(chunk.subarray(0, keep))).then(() => sink.end());
          enough();
          return cut;
        },
        end: () => cut ?? sink.end(),
      };
    },
  };
}
