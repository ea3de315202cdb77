import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import { projectQueries } from './queries';

export function useProject() {
  const { id = '' } = useParams();
  return useQuery(projectQueries.detail(id));
}
