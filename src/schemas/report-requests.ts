// zod shapes of the reporting and product catalog bodies (OpenAPI tags Reporting and Product
// Catalog). The shape is checked here; the rules of types, columns, units and ranges live in
// reports.ts (zod-free) and run after it.
import * as z from 'zod';
import { COLUMN_TYPES, REPORT_STATUSES } from './reports.js';

const TimeRange = z.strictObject({ start_time: z.string(), end_time: z.string() });
const Filter = z.strictObject({ column: z.string(), operator: z.string(), values: z.array(z.string()) });

const common = {
  report_type: z.string(),
  time_range: TimeRange,
  columns: z.array(z.string()),
  time_unit: z.string(),
  filters: z.array(Filter).optional(),
};

/** POST reporting/report: file_format is required by the OpenAPI. */
export const CreateReportRequest = z.strictObject({ ...common, file_format: z.string() });
export type CreateReportRequest = z.infer<typeof CreateReportRequest>;

/** POST reporting/sync. */
export const SyncReportRequest = z.strictObject(common);
export type SyncReportRequest = z.infer<typeof SyncReportRequest>;

export const CreateReportResponse = z.object({ report_id: z.string() });
export type CreateReportResponse = z.infer<typeof CreateReportResponse>;

export const ReportSuccessResult = z.object({
  report_url: z.string(),
  /** int64 as a string. */
  file_size: z.string().regex(/^\d+$/),
  url_expires_at: z.string(),
  report_schema: z.array(z.string()),
});

export const ReportStatusResponse = z.object({
  status: z.enum(REPORT_STATUSES),
  result: z
    .object({
      started_at: z.string().optional(),
      finished_at: z.string().optional(),
      success_result: ReportSuccessResult.optional(),
      failure_result: z.object({ failure_reason: z.string() }).optional(),
    })
    .optional(),
});
export type ReportStatusResponse = z.infer<typeof ReportStatusResponse>;

export const SyncReportResponse = z.object({
  schema: z.object({ columns: z.array(z.object({ name: z.string(), type: z.enum(COLUMN_TYPES) })) }),
  data: z.object({ rows: z.array(z.object({ values: z.array(z.string()) })) }),
});
export type SyncReportResponse = z.infer<typeof SyncReportResponse>;

export const Product = z.object({
  gtin: z.string(),
  product_name: z.string(),
  brand_owner_name: z.string(),
  brand_name: z.string(),
  main_image_url: z.string(),
  size: z.string(),
});
export type Product = z.infer<typeof Product>;
