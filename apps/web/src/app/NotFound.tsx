import { useTranslation } from 'react-i18next';
import { ResultCard } from '../components/ResultCard';

export function NotFound() {
  const { t } = useTranslation();
  return (
    <ResultCard kind="error" title={t('titles.not-found')} action={{ label: t('common.toHome'), to: '/' }}>
      <span data-testid="not-found">{t('system.notFoundText')}</span>
    </ResultCard>
  );
}
