// ECharts options the stats tabs share: bars per category (one series per figure, maybe stacked, maybe
// lying down for long names) and lines per day. Screens pass figures, not chart settings.

export interface BarSeries {
  name: string;
  data: Array<number | null>;
  /** The previous period's series (compare): drawn faded and dashed behind this period's. */
  faded?: boolean;
}

/** How a previous-period series looks: the same kind of mark, faded, a dashed line. */
export const FADED = {
  itemStyle: { opacity: 0.35 },
  lineStyle: { type: 'dashed', opacity: 0.5 },
  z: 1,
} as const;

/** The previous period's series beside this period's (compare), aligned by day offset (alignPrevious). */
export function previousLine(name: string, data: Array<number | null>) {
  return { name, type: 'line', connectNulls: true, symbolSize: 4, data, ...FADED };
}

export function barOption(
  categories: string[],
  series: BarSeries[],
  { stack = false, horizontal = false }: { stack?: boolean; horizontal?: boolean } = {},
): Record<string, unknown> {
  const categoryAxis = { type: 'category', data: categories, ...(horizontal ? { inverse: true } : {}) };
  const valueAxis = { type: 'value', minInterval: 1 };
  return {
    tooltip: { trigger: 'axis' },
    legend: series.length > 1 ? {} : undefined,
    grid: { left: 8, right: 16, bottom: 8, top: series.length > 1 ? 32 : 16, containLabel: true },
    xAxis: horizontal ? valueAxis : categoryAxis,
    yAxis: horizontal ? { ...categoryAxis, axisLabel: { width: 160, overflow: 'truncate' } } : valueAxis,
    series: series.map((s) => ({
      name: s.name,
      type: 'bar',
      barMaxWidth: 48,
      ...(stack && !s.faded ? { stack: 'total' } : {}),
      ...(s.faded ? FADED : {}),
      data: s.data,
    })),
  };
}

/** A small line without axes or legend, for a figure's trend under it (the dashboard). */
export function sparkOption(categories: string[], data: Array<number | null>) {
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 2, right: 2, top: 4, bottom: 2 },
    xAxis: { type: 'category', data: categories, show: false, boundaryGap: false },
    yAxis: { type: 'value', show: false, min: 0 },
    series: [{ type: 'line', data, connectNulls: true, symbolSize: 4, areaStyle: { opacity: 0.15 } }],
  };
}

export function lineOption(
  categories: string[],
  series: BarSeries[],
  valueAxis: Record<string, unknown> = {},
) {
  return {
    tooltip: { trigger: 'axis' },
    legend: series.length > 1 ? {} : undefined,
    grid: { left: 8, right: 16, bottom: 8, top: series.length > 1 ? 32 : 16, containLabel: true },
    xAxis: { type: 'category', data: categories },
    yAxis: { type: 'value', ...valueAxis },
    series: series.map((s) => ({
      name: s.name,
      type: 'line',
      connectNulls: true,
      data: s.data,
      ...(s.faded ? FADED : {}),
    })),
  };
}
