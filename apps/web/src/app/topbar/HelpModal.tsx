import { Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function HelpModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('shell.helpTitle')} centered>
      <Text fz="sm">{t('shell.helpText')}</Text>
    </Modal>
  );
}
