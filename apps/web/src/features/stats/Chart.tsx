import { ActionIcon, Box, Center, Loader, Tooltip } from '@mantine/core';
import { IconPhotoDown } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadBlob } from './model';

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

/**
 * A chart of `option` (ECharts option object); clicks on a bar/cell report series and data index. Every
 * chart (but sparklines, `png={false}`) has a PNG button: the drawn chart at twice its pixels on white.
 */
export function Chart({
  option,
  height = 280,
  onClick,
  testId,
  fileName,
  png = true,
}: {
  option: Record<string, unknown>;
  height?: number;
  onClick?: (click: ChartClick) => void;
  testId?: string;
  /** The PNG's name (without .png); the test id or "chart" when not given. */
  fileName?: string;
  png?: boolean;
}) {
  const { t } = useTranslation();
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

  const savePng = () => {
    const url = chart.current?.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#fff' });
    if (!url) return;
    // Decoded here rather than fetched: a data: address may be outside the page's connect-src.
    const bytes = Uint8Array.from(atob(url.slice(url.indexOf(',') + 1)), (c) => c.charCodeAt(0));
    downloadBlob(`${fileName ?? testId ?? 'chart'}.png`, new Blob([bytes], { type: 'image/png' }));
  };

  return (
    <Box pos="relative" h={height} data-testid={testId}>
      <Box ref={ref} h={height} />
      {png && ready && (
        <Tooltip label={t('shell.stats.png')}>
          <ActionIcon
            pos="absolute"
            top={0}
            right={0}
            variant="subtle"
            color="gray"
            size="sm"
            aria-label={t('shell.stats.png')}
            onClick={savePng}
            data-testid={testId ? `${testId}-png` : undefined}
          >
            <IconPhotoDown size={16} />
          </ActionIcon>
        </Tooltip>
      )}
      {!ready && (
        <Center pos="absolute" inset={0}>
          <Loader size="sm" />
        </Center>
      )}
    </Box>
  );
}
