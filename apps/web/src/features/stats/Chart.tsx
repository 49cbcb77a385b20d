import { Box, Center, Loader } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';

// ECharts, loaded on first use (its own chunk) with only the parts the stats tabs draw: bar, line and
// heatmap series, grid, tooltip, legend, visual map, canvas renderer.

type ECharts = typeof import('./echarts');
let loading: Promise<ECharts> | null = null;
const loadECharts = () => {
  loading ??= import('./echarts');
  return loading;
};

export interface ChartClick {
  seriesIndex: number;
  dataIndex: number;
}

/** A chart of `option` (ECharts option object); clicks on a bar/cell report series and data index. */
export function Chart({
  option,
  height = 280,
  onClick,
  testId,
}: {
  option: Record<string, unknown>;
  height?: number;
  onClick?: (click: ChartClick) => void;
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<ECharts['echarts']['init']> | null>(null);
  const clickRef = useRef(onClick);
  clickRef.current = onClick;
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | null = null;
    void loadECharts().then(({ echarts }) => {
      if (disposed || !ref.current) return;
      chart.current = echarts.init(ref.current);
      chart.current.on('click', (event) =>
        clickRef.current?.({ seriesIndex: event.seriesIndex ?? 0, dataIndex: event.dataIndex }),
      );
      observer = new ResizeObserver(() => chart.current?.resize());
      observer.observe(ref.current);
      setReady(true);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    // No animation: figures read at once (and screenshots show the drawn bars, not a bar growing).
    if (ready) chart.current?.setOption({ animation: false, ...option }, true);
  }, [ready, option]);

  return (
    <Box pos="relative" h={height} data-testid={testId}>
      <Box ref={ref} h={height} />
      {!ready && (
        <Center pos="absolute" inset={0}>
          <Loader size="sm" />
        </Center>
      )}
    </Box>
  );
}
